import { describe, expect, it } from "@effect/vitest"
import * as Effect from "effect/Effect"
import { sha256Hex } from "../signing/hmac.js"
import { secretBoxLayer } from "../signing/secret-box.js"
import { fingerprintsOf } from "./idempotency-policy.js"

const keyA = new Uint8Array(32).fill(7)
const keyB = new Uint8Array(32).fill(9)
const body = new TextEncoder().encode('{"type":"bank_account","iban":"DE89370400440532013000"}')
const plain = sha256Hex(new TextEncoder().encode(`POST /api/v1/payout-destinations\n${sha256Hex(body)}`))

const under = (master: Uint8Array, previous?: Uint8Array) =>
  Effect.runSync(fingerprintsOf("POST /api/v1/payout-destinations", body).pipe(Effect.provide(secretBoxLayer(master, previous))))

describe("request fingerprints", () => {
  it("the stored fingerprint is keyed: not the body's plain hash, and different under another master key", () => {
    const a = under(keyA)
    expect(a.fingerprint).toMatch(/^[0-9a-f]{64}$/)
    expect(a.fingerprint).not.toBe(plain)
    expect(a.fingerprint).not.toContain(sha256Hex(body))
    expect(under(keyB).fingerprint).not.toBe(a.fingerprint)
    expect(under(keyA).fingerprint).toBe(a.fingerprint)
  })

  it("during a rotation the previous key's fingerprint and the unkeyed form still match", () => {
    const rotated = under(keyB, keyA)
    expect(rotated.fingerprint).toBe(under(keyB).fingerprint)
    expect(rotated.alsoMatches).toEqual([under(keyA).fingerprint, plain])
    expect(under(keyA).alsoMatches).toEqual([plain])
  })

  it("another operation or body is another request", () => {
    const other = Effect.runSync(fingerprintsOf("POST /api/v1/payouts", body).pipe(Effect.provide(secretBoxLayer(keyA))))
    expect(other.fingerprint).not.toBe(under(keyA).fingerprint)
    expect(other.alsoMatches).not.toContain(plain)
  })
})

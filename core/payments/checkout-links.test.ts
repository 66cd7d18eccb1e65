import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { CheckoutLinks, layer } from "./checkout-links.js"

const previousKey = new Uint8Array(32).fill(1)
const key = new Uint8Array(32).fill(2)
const links = (options: { readonly key: Uint8Array; readonly previousKey?: Uint8Array }) =>
  Effect.runSync(Effect.provide(CheckoutLinks, layer({ ...options, baseUrl: "https://shop.example", lifetimeSeconds: 3_600 })))
const tokenOf = (link: string) => link.slice("https://shop.example/checkout/".length)

describe("checkout links across a master key rotation", () => {
  const before = links({ key: previousKey })
  const during = links({ key, previousKey })
  const after = links({ key })
  const issuedBefore = tokenOf(before.linkFor("SANDBOX_A", 2_000))

  it("a link issued under the previous key opens while it is configured, with its own expiry", () => {
    expect(during.read(issuedBefore, 1_000)).toEqual({ _tag: "Valid", trxId: "SANDBOX_A", expiresAtSeconds: 2_000 })
    expect(during.read(issuedBefore, 2_000)._tag).toBe("Expired")
  })

  it("links are issued under the current key only, and the previous key's stop opening once it is gone", () => {
    const issuedDuring = tokenOf(during.linkFor("SANDBOX_B", 2_000))
    expect(after.read(issuedDuring, 1_000)._tag).toBe("Valid")
    expect(before.read(issuedDuring, 1_000)._tag).toBe("Invalid")
    expect(after.read(issuedBefore, 1_000)._tag).toBe("Invalid")
  })
})

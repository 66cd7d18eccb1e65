import { Webhook } from "standardwebhooks"
import { describe, expect, it } from "vitest"
import { generateCredentials } from "./credential-keys.js"
import { signStandardWebhook } from "./standard-webhook-signature.js"
import { decodeStandardBase64, standardWebhookKey, standardWebhookSecret } from "./standard-webhook-key.js"

const ID = "evt_1"
const AT = 1_900_000_000
const BODY = '{"event":"payment.completed","data":{"amount":10.5}}'
const CHARACTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=_-"

/** What the reference library signs under `secret`, or undefined where it refuses the secret. */
const referenceSignature = (secret: string): string | undefined => {
  try {
    return new Webhook(secret).sign(ID, new Date(AT * 1000), BODY)
  } catch {
    return undefined
  }
}

describe("the key of a whsec_ secret", () => {
  it("signs as the standardwebhooks package keys the secret it is given, for issued secrets of the old and the new length", () => {
    for (let i = 0; i < 50; i++) {
      const issued = generateCredentials("sandbox").webhookSecret
      const older = issued.slice(0, -1) // 43 base62 characters, as issued before
      for (const secret of [issued, older]) {
        expect(signStandardWebhook(secret, ID, AT, BODY), secret).toBe(referenceSignature(secret))
        expect(standardWebhookSecret(secret)).toBe(secret)
      }
    }
  })

  it("decodes every length and padding as the reference decoder does, and refuses what it refuses", () => {
    // A cheap deterministic generator: the same cases on every run.
    let seed = 7
    const next = (n: number) => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) % n
    for (let i = 0; i < 3_000; i++) {
      const length = next(50)
      const tail = Array.from({ length }, () => CHARACTERS[next(i % 3 === 0 ? CHARACTERS.length : 64)]).join("") + "=".repeat(next(4))
      const secret = `whsec_${tail}`
      const reference = referenceSignature(secret)
      const decoded = decodeStandardBase64(tail)
      if (reference === undefined) {
        // Refused by the library (bad characters, padding or an empty key): the secret keys with its own bytes.
        expect(decoded === undefined || decoded.length === 0, tail).toBe(true)
        expect(standardWebhookKey(secret)).toEqual(new TextEncoder().encode(secret))
      } else {
        expect(signStandardWebhook(secret, ID, AT, BODY), tail).toBe(reference)
      }
    }
  })

  it("keys a secret without the prefix (the client secret) with its own bytes, which its whsec_ form gives a library", () => {
    const client = generateCredentials("sandbox").clientSecret
    expect(signStandardWebhook(client, ID, AT, BODY)).toBe(new Webhook(client, { format: "raw" }).sign(ID, new Date(AT * 1000), BODY))
    expect(signStandardWebhook(client, ID, AT, BODY)).toBe(referenceSignature(standardWebhookSecret(client)))
  })
})

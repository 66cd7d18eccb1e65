import { describe, expect, it } from "vitest"
import { expectError, expectInvalidCredentials, expectOk, ISO_MICROS } from "./assertions.js"
import { callerFor, createMerchant, type IssuedCredentials, sleep } from "./fixtures.js"
import { adminRequest, type Target } from "./signing.js"

const rotate = async (target: Target, merchantId: number, body: Record<string, unknown>): Promise<IssuedCredentials> =>
  expectOk(await adminRequest(target, "POST", `/merchants/${merchantId}/credentials`, body), 201) as IssuedCredentials

/** Rotation without loss: POST /admin/v1/merchants/{id}/credentials with overlap_seconds, and ending it early. */
export const rotationCases = (target: () => Target) =>
  describe("credential rotation", () => {
    it("without an overlap the old set stops at once; with one both sets work until it ends early on request", async () => {
      const merchant = await createMerchant(target(), { status: "approved" })
      const first = callerFor(target(), merchant, await rotate(target(), merchant.id, { environment: "sandbox" }))
      expect(first.credentials.previous_valid_until).toBeNull()
      expectOk(await first.call())

      const before = Date.now()
      const second = callerFor(target(), merchant, await rotate(target(), merchant.id, { environment: "sandbox", overlap_seconds: 3600 }))
      expect(second.credentials.previous_valid_until).toMatch(ISO_MICROS)
      const until = Date.parse(second.credentials.previous_valid_until!)
      expect(until).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 + 3_599_000)
      expect(until).toBeLessThanOrEqual(Date.now() + 3_601_000)
      expectOk(await first.call())
      expectOk(await second.call())
      // Keys of one set never open with another's signature: the sets stay whole.
      expectInvalidCredentials(await first.call({ apiKey: second.credentials.api_key }))

      const third = callerFor(target(), merchant, await rotate(target(), merchant.id, { environment: "sandbox", overlap_seconds: 0 }))
      expect(third.credentials.previous_valid_until).toBeNull()
      // A rotation without overlap ends the set it replaces only; the first set keeps its own overlap.
      expectInvalidCredentials(await second.call())
      expectOk(await first.call())
      expectOk(await third.call())

      const ended = expectOk(await adminRequest(target(), "POST", `/merchants/${merchant.id}/credentials/end-overlap`, { environment: "sandbox" }))
      expect(ended).toEqual({ environment: "sandbox", destroyed: 1 })
      expectInvalidCredentials(await first.call())
      expectOk(await third.call())
      const again = expectOk(await adminRequest(target(), "POST", `/merchants/${merchant.id}/credentials/end-overlap`, { environment: "sandbox" }))
      expect(again).toEqual({ environment: "sandbox", destroyed: 0 })
    })

    it("refuses the replaced set once its overlap has passed, even where it was just accepted", async () => {
      const merchant = await createMerchant(target(), { status: "approved" })
      const old = callerFor(target(), merchant, await rotate(target(), merchant.id, { environment: "production" }))
      // Three seconds for the old set's call to land inside the overlap on a busy machine; the wait
      // starts after it, so the overlap has surely passed when the old set calls again.
      const current = callerFor(target(), merchant, await rotate(target(), merchant.id, { environment: "production", overlap_seconds: 3 }))
      expectOk(await old.call())
      await sleep(3_100)
      expectInvalidCredentials(await old.call())
      expectOk(await current.call())
    })

    it("refuses an overlap that is not a whole number of seconds from 0 to 30 days, and end-overlap without an environment", async () => {
      const merchant = await createMerchant(target(), { status: "approved" })
      for (const overlap of [-1, 2_592_001, 1.5, "60", true]) {
        expectError(
          await adminRequest(target(), "POST", `/merchants/${merchant.id}/credentials`, { environment: "sandbox", overlap_seconds: overlap }),
          { status: 422, errorCode: "VALIDATION_FAILED", fields: ["overlap_seconds"] }
        )
      }
      expectOk(await adminRequest(target(), "POST", `/merchants/${merchant.id}/credentials`, { environment: "sandbox", overlap_seconds: 2_592_000 }), 201)
      expectError(await adminRequest(target(), "POST", `/merchants/${merchant.id}/credentials/end-overlap`, {}), {
        status: 422, errorCode: "VALIDATION_FAILED", fields: ["environment"]
      })
      expectError(await adminRequest(target(), "POST", "/merchants/987654321/credentials/end-overlap", { environment: "sandbox" }), {
        status: 404, errorCode: "NOT_FOUND", message: "Merchant not found."
      })
    })
  })

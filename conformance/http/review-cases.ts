import { describe, it } from "vitest"
import { expectError, expectHeaderRefused, expectInvalidCredentials, expectOk, SIGNATURE_INVALID } from "./assertions.js"
import { callerFor, createMerchant, issueCredentials, setMerchantStatus, type MerchantCaller, type MerchantStatus } from "./fixtures.js"
import type { HttpResult, Target } from "./signing.js"

const PENDING = { status: 403, errorCode: "MERCHANT_NOT_APPROVED", message: "Merchant Pending Approval" } as const
const SUSPENDED = { status: 403, errorCode: "MERCHANT_SUSPENDED", message: "Merchant account suspended." } as const
const blocked = (status: "rejected" | "disabled") =>
  ({ status: 403, errorCode: "MERCHANT_BLOCKED", message: `Merchant account is ${status}.` }) as const

type Outcome = "ok" | typeof PENDING | typeof SUSPENDED | ReturnType<typeof blocked>

const expectOutcome = (response: HttpResult, outcome: Outcome) =>
  outcome === "ok" ? expectOk(response) : expectError(response, { ...outcome, errors: {} })

/** A merchant in `status` with both credential sets. */
const bothEnvironments = async (target: Target, status: MerchantStatus) => {
  const merchant = await createMerchant(target, { status })
  return {
    id: merchant.id,
    sandbox: callerFor(target, merchant, await issueCredentials(target, merchant.id, "sandbox")),
    production: callerFor(target, merchant, await issueCredentials(target, merchant.id, "production"))
  }
}

const matrix: ReadonlyArray<readonly [MerchantStatus, Outcome, Outcome]> = [
  ["pending", "ok", PENDING],
  ["approved", "ok", "ok"],
  ["suspended", SUSPENDED, SUSPENDED],
  ["rejected", blocked("rejected"), blocked("rejected")],
  ["disabled", blocked("disabled"), blocked("disabled")]
]

/** Spec 1 (merchant review), 5.9, 7.4: what each review status may do in each environment. */
export const reviewCases = (target: () => Target) =>
  describe("merchant review status", () => {
    it.each(matrix)("a %s merchant: sandbox and production answer as the review rules say", async (status, sandbox, production) => {
      const merchant = await bothEnvironments(target(), status)
      expectOutcome(await merchant.sandbox.call(), sandbox)
      expectOutcome(await merchant.production.call(), production)
    })

    it("a status change through the admin API takes effect on the very next request", async () => {
      const merchant = await bothEnvironments(target(), "pending")
      const steps: ReadonlyArray<readonly [MerchantStatus, Outcome, Outcome]> = [
        ["approved", "ok", "ok"],
        ["suspended", SUSPENDED, SUSPENDED],
        ["approved", "ok", "ok"],
        ["pending", "ok", PENDING],
        ["disabled", blocked("disabled"), blocked("disabled")],
        ["approved", "ok", "ok"],
        ["rejected", blocked("rejected"), blocked("rejected")]
      ]
      expectOutcome(await merchant.production.call(), PENDING)
      for (const [status, sandbox, production] of steps) {
        await setMerchantStatus(target(), merchant.id, status)
        expectOutcome(await merchant.sandbox.call(), sandbox)
        expectOutcome(await merchant.production.call(), production)
      }
    })

    it("tells a caller that cannot prove who it is nothing about the review status", async () => {
      for (const status of ["suspended", "rejected", "pending"] as const) {
        const merchant = await bothEnvironments(target(), status)
        const stranger: MerchantCaller = merchant.production
        expectHeaderRefused(await stranger.call({ signature: `sha256=${"a".repeat(64)}` }), "X-Signature", SIGNATURE_INVALID)
        expectInvalidCredentials(await stranger.call({ apiKey: `ak_${"3".repeat(43)}` }))
      }
    })
  })

import * as Effect from "effect/Effect"
import { listAllPayouts } from "../../../core/payouts/list-payouts.js"
import { approvePayout } from "../../../core/payouts/approve-payout.js"
import { operatePayout } from "../../../core/payouts/operate-payout.js"
import type { Payout } from "../../../core/payouts/payout.js"
import * as Contract from "../contract/payout-contracts.js"
import { validBody } from "../contract/read-body.js"
import { endpoint } from "../endpoint/endpoint.js"
import { textInPath } from "../contract/parameters.js"
import { payoutJson } from "../response/payout-json.js"

/** The merchant API's payout, naming its merchant: an operator sees every merchant's. */
export const adminPayoutJson = (payout: Payout) => ({ ...payoutJson(payout), merchant_id: payout.merchantId })

const TAG = "Admin: payouts"
const payoutIdInPath = textInPath("id", "The payout's id.")

const list = endpoint({
  method: "get",
  path: "/admin/v1/payouts",
  operationId: "listAdminPayouts",
  summary: "Every merchant's payouts, newest first",
  description: "Of one status when asked: `status=pending` is the queue waiting for approval, `status=approved` the payouts to send.",
  tag: TAG,
  security: "admin",
  query: Contract.adminPayoutListQuery,
  success: { status: 200, description: "A page of payouts.", schema: Contract.AdminPayoutPage },
  handler: (request) =>
    Effect.map(listAllPayouts(request), (page) => ({
      data: page.payouts.map(adminPayoutJson),
      has_more: page.nextCursor !== null,
      next_cursor: page.nextCursor
    }))
})

const ERRORS = ["PayoutNotFound", "PayoutTransitionRefused"] as const

const approve = endpoint({
  method: "post",
  path: "/admin/v1/payouts/{id}/approve",
  operationId: "approvePayout",
  summary: "Approve a pending payout",
  description: "It is handed to the rail of its destination's type once approved: a bank account's (the manual rail) waits, approved, " +
    "for the day's file and a mark-paid or mark-failed; a Stripe account's is transferred at once and answered paid, or failed with its funds returned.",
  tag: TAG,
  security: "admin",
  parameters: [payoutIdInPath],
  // The rail is called once the approval committed (never inside a transaction): its audit entry follows.
  commitsAsItGoes: true,
  success: { status: 200, description: "The payout, approved (or already paid or failed by its rail).", schema: Contract.AdminPayoutEnvelope },
  errors: ERRORS,
  handler: Effect.gen(function*() {
    return { data: adminPayoutJson(yield* approvePayout(yield* payoutIdInPath.read)) }
  })
})

const reject = endpoint({
  method: "post",
  path: "/admin/v1/payouts/{id}/reject",
  operationId: "rejectPayout",
  summary: "Reject a pending payout",
  description: "Its amount goes back to the merchant's wallet.",
  tag: TAG,
  security: "admin",
  parameters: [payoutIdInPath],
  body: Contract.rejectPayoutBody,
  success: { status: 200, description: "The payout, rejected.", schema: Contract.AdminPayoutEnvelope },
  errors: ERRORS,
  handler: Effect.gen(function*() {
    const id = yield* payoutIdInPath.read
    const { reason } = yield* validBody(Contract.rejectPayoutBody)
    return { data: adminPayoutJson(yield* operatePayout(id, "reject", { reason })) }
  })
})

const markPaid = endpoint({
  method: "post",
  path: "/admin/v1/payouts/{id}/mark-paid",
  operationId: "markPayoutPaid",
  summary: "Mark an approved payout paid",
  description: "The money left the platform's bank: it is no longer in transit.",
  tag: TAG,
  security: "admin",
  parameters: [payoutIdInPath],
  body: Contract.markPayoutPaidBody,
  success: { status: 200, description: "The payout, paid.", schema: Contract.AdminPayoutEnvelope },
  errors: ERRORS,
  handler: Effect.gen(function*() {
    const id = yield* payoutIdInPath.read
    const { reference } = yield* validBody(Contract.markPayoutPaidBody)
    return { data: adminPayoutJson(yield* operatePayout(id, "mark-paid", { reference })) }
  })
})

const markFailed = endpoint({
  method: "post",
  path: "/admin/v1/payouts/{id}/mark-failed",
  operationId: "markPayoutFailed",
  summary: "Mark an approved payout failed",
  description: "It did not arrive: its amount goes back to the merchant's wallet.",
  tag: TAG,
  security: "admin",
  parameters: [payoutIdInPath],
  body: Contract.failPayoutBody,
  success: { status: 200, description: "The payout, failed.", schema: Contract.AdminPayoutEnvelope },
  errors: ERRORS,
  handler: Effect.gen(function*() {
    const id = yield* payoutIdInPath.read
    const { reason } = yield* validBody(Contract.failPayoutBody)
    return { data: adminPayoutJson(yield* operatePayout(id, "mark-failed", { reason })) }
  })
})

/** docs/admin-api.md, payouts: the operator's manual flow. */
export const adminPayoutEndpoints = [list, approve, reject, markPaid, markFailed] as const

import * as Effect from "effect/Effect"
import { closeSandboxDispute } from "../../../core/disputes/close-dispute.js"
import type { Dispute } from "../../../core/disputes/dispute.js"
import { listAllDisputes } from "../../../core/disputes/list-disputes.js"
import { openSandboxDispute } from "../../../core/disputes/open-dispute.js"
import * as Contract from "../contract/dispute-contracts.js"
import { textInPath } from "../contract/parameters.js"
import { validBody } from "../contract/read-body.js"
import { endpoint } from "../endpoint/endpoint.js"
import { disputeJson } from "../response/dispute-json.js"

/** The merchant API's dispute, naming its merchant: an operator sees every merchant's. */
export const adminDisputeJson = (dispute: Dispute) => ({ ...disputeJson(dispute), merchant_id: dispute.merchantId })

const list = endpoint({
  method: "get",
  path: "/admin/v1/disputes",
  operationId: "listAdminDisputes",
  summary: "Every merchant's disputes, newest first",
  description: "Of one status when asked: `status=needs_response` are those waiting for the merchant's evidence.",
  tag: "Admin: disputes",
  security: "admin",
  query: Contract.disputeListQuery,
  success: { status: 200, description: "A page of disputes.", schema: Contract.AdminDisputePage },
  handler: (request) =>
    Effect.map(listAllDisputes(request), (page) => ({
      data: page.disputes.map(adminDisputeJson),
      has_more: page.nextCursor !== null,
      next_cursor: page.nextCursor
    }))
})

const trxIdInPath = textInPath("trx_id", "The completed sandbox payment to dispute.")

const open = endpoint({
  method: "post",
  path: "/admin/v1/sandbox/payments/{trx_id}/dispute",
  operationId: "openSandboxDispute",
  summary: "Open a dispute on a sandbox payment, as a card network would",
  description: "The disputed amount and the merchant's dispute_fee leave its wallet at once, whatever it holds (the balance may go below zero).",
  tag: "Admin: disputes",
  security: "admin",
  parameters: [trxIdInPath],
  body: Contract.openSandboxDisputeBody,
  success: { status: 201, description: "The dispute, needing the merchant's response.", schema: Contract.AdminDisputeEnvelope },
  errors: ["PaymentNotFound", "DisputeRefused"],
  handler: Effect.gen(function*() {
    const trxId = yield* trxIdInPath.read
    const body = yield* validBody(Contract.openSandboxDisputeBody)
    return { data: adminDisputeJson(yield* openSandboxDispute(trxId, { amount: body.amount, reason: body.reason })) }
  })
})

const disputeIdInPath = textInPath("id", "The dispute's id.")

const close = endpoint({
  method: "post",
  path: "/admin/v1/sandbox/disputes/{id}/close",
  operationId: "closeSandboxDispute",
  summary: "Close a sandbox dispute won or lost",
  description: "Won: the held amount goes back to the merchant's wallet. Lost: the gateway keeps it. The dispute fee is never returned.",
  tag: "Admin: disputes",
  security: "admin",
  parameters: [disputeIdInPath],
  body: Contract.closeSandboxDisputeBody,
  success: { status: 200, description: "The dispute, won or lost.", schema: Contract.AdminDisputeEnvelope },
  errors: ["DisputeNotFound", "DisputeTransitionRefused", "DisputeRefused"],
  handler: Effect.gen(function*() {
    const id = yield* disputeIdInPath.read
    const { outcome } = yield* validBody(Contract.closeSandboxDisputeBody)
    return { data: adminDisputeJson(yield* closeSandboxDispute(id, outcome)) }
  })
})

/** docs/admin-api.md, disputes: the operator's list, and the sandbox's card network. */
export const adminDisputeEndpoints = [list, open, close] as const

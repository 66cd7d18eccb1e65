import * as Effect from "effect/Effect"
import { getDispute, listDisputes } from "../../../core/disputes/list-disputes.js"
import { submitDisputeEvidence } from "../../../core/disputes/submit-evidence.js"
import * as Contract from "../contract/dispute-contracts.js"
import { textInPath } from "../contract/parameters.js"
import { validBody } from "../contract/read-body.js"
import { endpoint } from "../endpoint/endpoint.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"
import { disputeJson } from "../response/dispute-json.js"

const TAG = "Disputes"
const disputeIdInPath = textInPath("disputeId", "The dispute's id.")

const list = endpoint({
  method: "get",
  path: "/api/v1/disputes",
  operationId: "listDisputes",
  summary: "List disputes, newest first",
  description: "The merchant's disputes in the environment of the request, of one status when asked. Pages follow next_cursor.",
  tag: TAG,
  security: "merchant",
  query: Contract.disputeListQuery,
  success: { status: 200, description: "A page of disputes.", schema: Contract.DisputePage },
  handler: (request) => Effect.gen(function*() {
    const page = yield* listDisputes(yield* CurrentMerchant, request)
    return { data: page.disputes.map(disputeJson), has_more: page.nextCursor !== null, next_cursor: page.nextCursor }
  })
})

const get = endpoint({
  method: "get",
  path: "/api/v1/disputes/{disputeId}",
  operationId: "getDispute",
  summary: "One dispute",
  description: "Another merchant's or environment's id is not found.",
  tag: TAG,
  security: "merchant",
  parameters: [disputeIdInPath],
  success: { status: 200, description: "The dispute.", schema: Contract.DisputeEnvelope },
  errors: ["DisputeNotFound"],
  handler: Effect.gen(function*() {
    return { data: disputeJson(yield* getDispute(yield* CurrentMerchant, yield* disputeIdInPath.read)) }
  })
})

const evidence = endpoint({
  method: "post",
  path: "/api/v1/disputes/{disputeId}/evidence",
  operationId: "submitDisputeEvidence",
  summary: "Answer a dispute with evidence",
  description: "Taken once, while the dispute needs a response and before evidence_due_by; sent on to the gateway, and the dispute moves to under_review.",
  tag: TAG,
  security: "merchant",
  parameters: [disputeIdInPath],
  body: Contract.disputeEvidenceBody,
  success: { status: 200, description: "The dispute, under review (also for an idempotent replay).", schema: Contract.DisputeEnvelope },
  errors: ["DisputeNotFound", "DisputeTransitionRefused", "DisputeEvidenceOverdue", "DisputeEvidenceRefused", "PluginCallFailed", "UnknownGatewayPlugin"],
  handler: Effect.gen(function*() {
    const id = yield* disputeIdInPath.read
    const body = yield* validBody(Contract.disputeEvidenceBody)
    const dispute = yield* submitDisputeEvidence(yield* CurrentMerchant, id, { text: body.text, files: body.files ?? [] })
    return { data: disputeJson(dispute) }
  })
})

/** Money out (issue 35, item 4): the merchant's disputes and its answer to one. */
export const disputeEndpoints = [list, get, evidence] as const

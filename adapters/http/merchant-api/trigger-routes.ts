import * as Effect from "effect/Effect"
import { triggerEvent } from "../../../core/triggers/trigger-event.js"
import { paymentIpnUrlRefusal } from "../../../core/webhooks/ipn-url-rule.js"
import { ipnUrlToo } from "../contract/ipn-url-field.js"
import { readJsonBody } from "../contract/read-body.js"
import { triggerBody, TriggerEnvelope } from "../contract/trigger-contracts.js"
import { endpoint } from "../endpoint/endpoint.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"

const trigger = endpoint({
  method: "post",
  path: "/api/v1/triggers",
  operationId: "triggerEvent",
  summary: "Make a sandbox event happen",
  description: "Sandbox only: with X-Environment production the answer is 422. Creates the objects the event is about and moves them through the " +
    "same code the API, the sandbox simulator, the operator and the scheduler run (subscriptions on a fresh test clock, advanced), so the event is " +
    "really queued, never written alone. An event that cannot be made to happen so is refused (422) with the reason.",
  tag: "Triggers",
  security: "merchant",
  body: triggerBody,
  success: { status: 200, description: "What was made and the events queued.", schema: TriggerEnvelope },
  // The first are what a merchant's sandbox may meet (no clock left, too little money); the rest are
  // the refusals of the flows a trigger runs, declared as those flows' own endpoints declare them.
  errors: [
    "TriggerSandboxOnly", "TestClockLimitReached", "PayoutExceedsBalance", "WalletInsufficientForRefund", "RefundExceedsBalance",
    "CurrencyNotEnabled", "DisputeEvidenceOverdue", "DisputeEvidenceRefused", "DisputeNotFound", "DisputeRefused", "DisputeTransitionRefused",
    "DuplicateReference", "ExternalReferenceTaken", "InvoiceSequenceTaken", "PartialRefundUnsupported", "PaymentAlreadyFinal", "PaymentFullyRefunded",
    "PaymentNotFound", "PaymentNotRefundable", "PayoutNotFound", "PayoutTransitionRefused", "PluginCallFailed", "ReceiverWalletUnavailable",
    "RefundHeldByDisputes", "RefundReferenceConflict", "SubscriptionNotFound", "SubscriptionTransitionRefused", "TestClockBusy", "TestClockNotFound",
    "TestClockSandboxOnly", "UnknownGatewayPlugin"
  ],
  handler: Effect.gen(function*() {
    const caller = yield* CurrentMerchant
    const { done, fields, values } = yield* readJsonBody(triggerBody)
    yield* ipnUrlToo(fields, values.ipn_url, paymentIpnUrlRefusal)
    const request = yield* done((body) => ({ event: body.event, ipnUrl: body.ipn_url }))
    const outcome = yield* triggerEvent(caller, request)
    return { data: outcome }
  })
})

/** Issue 37: sandbox triggers. */
export const triggerEndpoints = [trigger] as const

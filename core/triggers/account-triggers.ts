import * as Effect from "effect/Effect"
import { closeSandboxDispute } from "../disputes/close-dispute.js"
import { openSandboxDispute } from "../disputes/open-dispute.js"
import { submitDisputeEvidence } from "../disputes/submit-evidence.js"
import { approvePayout } from "../payouts/approve-payout.js"
import { operatePayout } from "../payouts/operate-payout.js"
import { listPayoutDestinations } from "../payouts/payout-destinations.js"
import { requestPayout } from "../payouts/request-payout.js"
import { ValidationFailed } from "../shared/validation.js"
import { endedPayment, TRIGGER_PART, type TriggeredObject, type TriggerRun, triggerCurrency } from "./triggered-objects.js"

export type AccountTrigger = "payout.created" | "payout.paid" | "payout.failed" | "dispute.created" | "dispute.updated" | "dispute.closed"

/**
 * A completed payment puts money in the sandbox wallet (available at once with sandbox's default
 * payout delay of 0 days), then a part of it is paid out to one of the merchant's own sandbox
 * destinations through the payout request, and the operator's steps are played as the sandbox's
 * operator: approved (handed to its rail), then marked paid or failed if the rail left it approved.
 */
const triggerPayout = (run: TriggerRun, event: "payout.created" | "payout.paid" | "payout.failed") =>
  Effect.gen(function*() {
    const currency = yield* triggerCurrency(run.caller)
    const destination = (yield* listPayoutDestinations(run.caller)).find((each) => each.currency === currency)
    if (destination === undefined) {
      return yield* ValidationFailed.field(
        "event",
        `Payout events need a sandbox payout destination in ${currency}: add one (POST /api/v1/payout-destinations) and trigger again.`
      )
    }
    const payment = yield* endedPayment(run, currency, "paid")
    const payout = yield* requestPayout(run.caller, { amount: TRIGGER_PART, currency, destinationId: destination.id })
    if (event !== "payout.created") {
      const approved = yield* approvePayout(payout.id)
      if (approved.status === "approved") {
        yield* event === "payout.paid"
          ? operatePayout(payout.id, "mark-paid", { reference: `trigger-${payout.id}` })
          : operatePayout(payout.id, "mark-failed", { reason: "Triggered failure: the bank returned the transfer." })
      }
    }
    return [{ type: "payment", id: payment.trxId }, { type: "payout", id: payout.id }] satisfies ReadonlyArray<TriggeredObject>
  })

/**
 * A completed payment disputed as the sandbox's card network disputes one (the operator's sandbox
 * path), answered with evidence through the merchant's own use case, and closed won by the network.
 */
const triggerDispute = (run: TriggerRun, event: "dispute.created" | "dispute.updated" | "dispute.closed") =>
  Effect.gen(function*() {
    const payment = yield* endedPayment(run, yield* triggerCurrency(run.caller), "paid")
    const dispute = yield* openSandboxDispute(payment.trxId, { amount: undefined, reason: "fraudulent" })
    if (event === "dispute.updated") {
      yield* submitDisputeEvidence(run.caller, dispute.id, { text: "Triggered evidence: the customer received the goods.", files: [] })
    }
    if (event === "dispute.closed") yield* closeSandboxDispute(dispute.id, "won")
    return [{ type: "payment", id: payment.trxId }, { type: "dispute", id: dispute.id }] satisfies ReadonlyArray<TriggeredObject>
  })

export const triggerAccountEvent = (run: TriggerRun, event: AccountTrigger) =>
  event.startsWith("payout.")
    ? triggerPayout(run, event as "payout.created" | "payout.paid" | "payout.failed")
    : triggerDispute(run, event as "dispute.created" | "dispute.updated" | "dispute.closed")

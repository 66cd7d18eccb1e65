import * as Effect from "effect/Effect"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { ValidationFailed } from "../shared/validation.js"
import { paymentIpnUrlRefusal, NO_IPN_TARGET } from "../webhooks/ipn-url-rule.js"
import { WebhookOutbox } from "../webhooks/webhook-outbox.js"
import { type AccountTrigger, triggerAccountEvent } from "./account-triggers.js"
import { type PaymentTrigger, triggerPaymentEvent } from "./payment-triggers.js"
import { type SubscriptionTrigger, triggerSubscriptionEvent } from "./subscription-triggers.js"
import { triggerRefusal, TriggerSandboxOnly, type TriggerableEvent } from "./trigger-catalog.js"
import type { TriggeredObject, TriggerRun } from "./triggered-objects.js"

export interface TriggerRequest {
  readonly event: string
  /** Where the triggered payment or subscription sends its events; absent: none (NO_IPN_TARGET). */
  readonly ipnUrl: string | undefined
}

export interface TriggeredEvent {
  readonly id: string
  readonly type: string
}

export interface TriggerOutcome {
  readonly event: TriggerableEvent
  readonly objects: ReadonlyArray<TriggeredObject>
  /** Every event queued about those objects, oldest first (one per target it goes to, as the events API lists them). */
  readonly events: ReadonlyArray<TriggeredEvent>
}

/** Events an object has: far above what any recipe sends about one. */
const EVENTS_PER_OBJECT = 100

const recipeFor = (run: TriggerRun, event: TriggerableEvent) => {
  if (event.startsWith("payment.")) return triggerPaymentEvent(run, event as PaymentTrigger)
  if (event.startsWith("payout.") || event.startsWith("dispute.")) return triggerAccountEvent(run, event as AccountTrigger)
  return triggerSubscriptionEvent(run, event as SubscriptionTrigger)
}

/** The events queued about the objects (refunds are their payment's events; a clock has none). */
const eventsAbout = (caller: MerchantScope, objects: ReadonlyArray<TriggeredObject>) =>
  Effect.gen(function*() {
    const outbox = yield* WebhookOutbox
    const found = yield* Effect.forEach(objects.filter((object) => object.type !== "refund" && object.type !== "test_clock"), (object) =>
      outbox.events({ merchantId: caller.merchant.id, environment: caller.environment, objectId: object.id, limit: EVENTS_PER_OBJECT }))
    const seen = new Set<string>()
    return found.flat()
      .filter((event) => !seen.has(event.id) && seen.add(event.id) !== undefined)
      .sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : (a.sequence ?? 0) - (b.sequence ?? 0)))
      .map((event): TriggeredEvent => ({ id: event.id, type: event.event }))
  })

/**
 * POST /api/v1/triggers: makes `event` really happen in the caller's sandbox, by creating objects and
 * moving them through the same use cases the API, the simulator and the scheduler run (never by
 * writing an event), and answers what it made and the events that were queued.
 */
export const triggerEvent = (caller: MerchantScope, request: TriggerRequest) =>
  Effect.gen(function*() {
    if (caller.environment !== "sandbox") return yield* new TriggerSandboxOnly()
    const refusal = triggerRefusal(request.event)
    if (refusal !== undefined) return yield* ValidationFailed.field("event", refusal)
    const event = request.event as TriggerableEvent
    const ipnUrl = request.ipnUrl ?? NO_IPN_TARGET
    if (ipnUrl !== NO_IPN_TARGET) {
      const ipnRefusal = yield* paymentIpnUrlRefusal(ipnUrl)
      if (ipnRefusal !== undefined) return yield* ValidationFailed.field("ipnUrl", ipnRefusal)
    }
    const objects = yield* recipeFor({ caller, ipnUrl }, event)
    const outcome: TriggerOutcome = { event, objects, events: yield* eventsAbout(caller, objects) }
    return outcome
  })

import * as Effect from "effect/Effect"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { ValidationFailed } from "../shared/validation.js"
import { paymentIpnUrlRefusal, NO_IPN_TARGET } from "../webhooks/ipn-url-rule.js"
import { EventLog } from "../webhooks/event-log.js"
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
  /** Every event logged about those objects, oldest first, each once (the event stream's ids; its deliveries are in the events API). */
  readonly events: ReadonlyArray<TriggeredEvent>
}

const recipeFor = (run: TriggerRun, event: TriggerableEvent) => {
  if (event.startsWith("payment.")) return triggerPaymentEvent(run, event as PaymentTrigger)
  if (event.startsWith("payout.") || event.startsWith("dispute.")) return triggerAccountEvent(run, event as AccountTrigger)
  return triggerSubscriptionEvent(run, event as SubscriptionTrigger)
}

/** Far above what any recipe sends. */
const EVENTS_READ = 1000

/**
 * The events logged about the objects since `afterSequence`, each once whatever targets it went to
 * (the ids a delivery of it and the event stream carry); another change of the merchant's logged
 * meanwhile is about other objects and is left out. A refund's events are its payment's; a clock has none.
 */
const eventsAbout = (caller: MerchantScope, afterSequence: number, objects: ReadonlyArray<TriggeredObject>) =>
  Effect.gen(function*() {
    const ids = new Set(objects.filter((object) => object.type !== "refund" && object.type !== "test_clock").map((object) => object.id))
    const logged = yield* (yield* EventLog).after({ merchantId: caller.merchant.id, environment: caller.environment, afterSequence, limit: EVENTS_READ })
    return logged.filter((event) => ids.has(event.objectId)).map((event): TriggeredEvent => ({ id: event.id, type: event.type }))
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
    const before = yield* (yield* EventLog).latestSequence(caller.merchant.id, caller.environment)
    const objects = yield* recipeFor({ caller, ipnUrl }, event)
    const outcome: TriggerOutcome = { event, objects, events: yield* eventsAbout(caller, before, objects) }
    return outcome
  })

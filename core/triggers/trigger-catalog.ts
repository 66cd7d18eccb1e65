import * as Schema from "effect/Schema"
import { EVENT_TYPES, type EventType } from "../webhooks/event-types.js"

/**
 * The events `POST /api/v1/triggers` makes happen in sandbox, each by running the flow that sends it
 * (never by writing the event), and those it cannot make happen honestly, each with the reason a
 * merchant reads. Every event type the kit sends is in exactly one of the two lists.
 */
export const TRIGGERABLE_EVENTS = [
  "payment.completed",
  "payment.failed",
  "payment.cancelled",
  "payment.expired",
  "payment.refunded",
  "invoice.created",
  "invoice.paid",
  "subscription.activated",
  "subscription.updated",
  "subscription.paused",
  "subscription.resumed",
  "subscription.cancelled",
  "subscription.past_due",
  "subscription.renewed",
  "subscription.trial_will_end",
  "invoice.reminder",
  "invoice.uncollectible",
  "invoice.payment_failed",
  "payout.created",
  "payout.paid",
  "payout.failed",
  "dispute.created",
  "dispute.updated",
  "dispute.closed"
] as const satisfies ReadonlyArray<EventType>

export type TriggerableEvent = (typeof TRIGGERABLE_EVENTS)[number]

/** Why each of the other event types cannot be triggered: the flow behind it needs what a trigger cannot supply. */
export const UNTRIGGERABLE_EVENTS: Readonly<Record<Exclude<EventType, TriggerableEvent>, string>> = {
  "balance.available":
    "balance.available is sent when a payment's payout delay passes on real time, which a trigger cannot move (in sandbox the default delay is 0 days, so the net is available at once and no event is sent)."
}

export const isTriggerable = (event: string): event is TriggerableEvent => (TRIGGERABLE_EVENTS as ReadonlyArray<string>).includes(event)

/** The message for an event that is not triggerable: why, or the list of those that are. */
export const triggerRefusal = (event: string): string | undefined => {
  if (isTriggerable(event)) return undefined
  const known = (EVENT_TYPES as ReadonlyArray<string>).includes(event)
  return known
    ? UNTRIGGERABLE_EVENTS[event as keyof typeof UNTRIGGERABLE_EVENTS]
    : `"${event}" is not an event that can be triggered: give one of ${TRIGGERABLE_EVENTS.join(", ")}.`
}

/** Triggers make objects and move them as real flows do: never in production. */
export class TriggerSandboxOnly extends Schema.TaggedError<TriggerSandboxOnly>()("TriggerSandboxOnly", {}) {}

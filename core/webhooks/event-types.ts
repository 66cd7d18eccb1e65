/**
 * Every event type the kit sends, declared once: what a webhook endpoint may subscribe to, and the
 * words of each event's `event` field. Payment and subscription events go to their own ipn_url and to
 * every endpoint subscribed; account events (payouts, disputes, balances) belong to no payment and go
 * to subscribed endpoints only.
 */

export const PAYMENT_EVENT_TYPES = ["payment.completed", "payment.failed", "payment.cancelled", "payment.expired", "payment.refunded"] as const

export const SUBSCRIPTION_EVENT_TYPES = [
  "subscription.activated",
  "subscription.renewed",
  "subscription.past_due",
  "subscription.cancelled",
  "invoice.created",
  "subscription.updated",
  "subscription.paused",
  "subscription.resumed",
  "subscription.trial_will_end",
  "invoice.reminder",
  "invoice.uncollectible",
  "invoice.paid",
  "invoice.payment_failed"
] as const

export const ACCOUNT_EVENT_TYPES = [
  "payout.created",
  "payout.paid",
  "payout.failed",
  "dispute.created",
  "dispute.updated",
  "dispute.closed",
  "balance.available"
] as const

export const EVENT_TYPES = [...PAYMENT_EVENT_TYPES, ...SUBSCRIPTION_EVENT_TYPES, ...ACCOUNT_EVENT_TYPES] as const

export type PaymentEventType = (typeof PAYMENT_EVENT_TYPES)[number]
export type SubscriptionEventType = (typeof SUBSCRIPTION_EVENT_TYPES)[number]
export type AccountEventType = (typeof ACCOUNT_EVENT_TYPES)[number]
export type EventType = (typeof EVENT_TYPES)[number]

/** The families a `prefix.*` pattern may name: the part of each type before its dot. */
export const EVENT_FAMILIES: ReadonlyArray<string> = [...new Set(EVENT_TYPES.map((type) => type.slice(0, type.indexOf("."))))]

const isEventType = (text: string): text is EventType => (EVENT_TYPES as ReadonlyArray<string>).includes(text)

/**
 * Why a subscription pattern names nothing the kit sends, or undefined when it is one of: an event
 * type exactly, `family.*` (every type of a family, those added later included), or `*` (all).
 */
export const eventPatternRefusal = (pattern: string): string | undefined => {
  if (pattern === "*" || isEventType(pattern)) return undefined
  if (pattern.endsWith(".*") && EVENT_FAMILIES.includes(pattern.slice(0, -2))) return undefined
  return `"${pattern}" is not a known event type: give one of ${EVENT_TYPES.join(", ")}, a family as ${EVENT_FAMILIES.map((family) => `${family}.*`).join(", ")}, or *.`
}

/** Whether a valid pattern takes events of `type`. */
export const patternMatches = (pattern: string, type: string): boolean =>
  pattern === "*" || pattern === type || (pattern.endsWith(".*") && type.startsWith(pattern.slice(0, -1)))

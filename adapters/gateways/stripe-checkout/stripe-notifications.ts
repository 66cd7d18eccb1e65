import type Stripe from "stripe"
import type { GatewayOutcome, NotificationContext, NotificationReport } from "../../../core/gateways/gateway-plugin.js"
import type { SavedMethodReport } from "../../../core/gateways/plugin-saved-methods.js"
import type { StripeCheckoutConfig } from "./stripe-checkout-config.js"
import { verifiedStripeEvent } from "./stripe-client.js"
import { chargedBy, isSessionId } from "./stripe-session-outcome.js"
import { DISPUTE_EVENTS, reportOfDispute } from "./stripe-disputes.js"

/** Stripe's recommended window: a signed event older than this is treated as a replay. */
const SIGNATURE_TOLERANCE_SECONDS = 300

/** The longest trxId a report may carry; a longer client_reference_id cannot be one of the kit's. */
const MAX_TRX_ID_LENGTH = 64

const CHECKOUT_EVENTS = new Set([
  "checkout.session.completed",
  "checkout.session.async_payment_succeeded",
  "checkout.session.async_payment_failed",
  "checkout.session.expired"
])

const outcomeOf = (type: string, session: Stripe.Checkout.Session): GatewayOutcome => {
  switch (type) {
    case "checkout.session.completed":
      return session.payment_status === "paid" ? "paid" : "pending"
    case "checkout.session.async_payment_succeeded":
      return "paid"
    case "checkout.session.async_payment_failed":
      return "declined"
    default:
      return "cancelled"
  }
}

/** Acknowledged with a 200 so Stripe stops sending it: nothing the kit needs. */
const IGNORED: NotificationReport = { ignore: true }
/** A 400 tells Stripe (and whoever forged it) the body was refused. */
const REFUSED: NotificationReport = { ignore: true, reply: { status: 400 } }

const trxIdOf = (session: { readonly client_reference_id?: unknown }): string | undefined => {
  const reference = session.client_reference_id
  return typeof reference === "string" && reference !== "" && reference.length <= MAX_TRX_ID_LENGTH ? reference : undefined
}

const verifiedEvent = async (context: NotificationContext<StripeCheckoutConfig>): Promise<Stripe.Event | undefined> => {
  const header = context.headers["stripe-signature"]
  if (header === undefined) return undefined
  try {
    return await verifiedStripeEvent(context.rawBody, header, context.config.webhook_secret, SIGNATURE_TOLERANCE_SECONDS)
  } catch {
    return undefined
  }
}

/**
 * A checkout event whose signature did not check out may still be a real one (a rotated secret, a
 * slow queue): it names the payment so the kit can ask Stripe itself. Nothing else in it is used.
 */
const unverifiedReport = (rawBody: Uint8Array): NotificationReport => {
  let event: unknown
  try {
    event = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(rawBody))
  } catch {
    return REFUSED
  }
  const { type, data } = (typeof event === "object" && event !== null ? event : {}) as { type?: unknown; data?: { object?: unknown } }
  const object = data?.object
  if (typeof type !== "string" || !CHECKOUT_EVENTS.has(type) || typeof object !== "object" || object === null) return REFUSED
  const trxId = trxIdOf(object as { client_reference_id?: unknown })
  return trxId === undefined ? REFUSED : { trxId, outcome: "pending", verified: false }
}

/** What a notification may need to ask Stripe, beyond the event itself. */
export interface NotificationLookups {
  /** The payment a dispute's PaymentIntent names. */
  readonly trxIdOfIntent: (paymentIntent: string) => Promise<string | undefined>
  /** The card a paid session saved, as a return reports it (the event names its PaymentIntent, unexpanded). */
  readonly savedMethodOf: (session: Stripe.Checkout.Session) => Promise<{ savedMethod?: SavedMethodReport }>
}

/**
 * A Stripe webhook delivery as the kit's report. A bad delivery is refused or unverified; a dispute
 * event asks Stripe which payment it is about, a paid subscription checkout which card it saved; those
 * calls may fail (the kit then answers 503 and Stripe sends the event again).
 */
export const reportOfNotification = async (
  context: NotificationContext<StripeCheckoutConfig>,
  lookups: NotificationLookups
): Promise<NotificationReport> => {
  const event = await verifiedEvent(context)
  if (event === undefined) return unverifiedReport(context.rawBody)
  // Test-mode events at a production record (or the reverse) are another account mode's business.
  if (event.livemode !== (context.environment === "production")) return IGNORED
  if (DISPUTE_EVENTS.has(event.type)) return reportOfDispute(event.type, event.data.object as Stripe.Dispute, lookups.trxIdOfIntent)
  if (!CHECKOUT_EVENTS.has(event.type)) return IGNORED
  const session = event.data.object as Stripe.Checkout.Session
  // A setup-only session (a saved card replaced) is no payment: only the customer's return completes it.
  if (session.mode === "setup") return IGNORED
  const trxId = trxIdOf(session)
  if (trxId === undefined || !isSessionId(session.id)) return IGNORED
  let charged: ReturnType<typeof chargedBy>
  try {
    charged = chargedBy(session)
  } catch {
    return REFUSED
  }
  const outcome = outcomeOf(event.type, session)
  // A customer who never comes back leaves only this event: it must save the card as a return would.
  const saved = outcome === "paid" ? await lookups.savedMethodOf(session) : {}
  return { trxId, outcome, ...charged, gatewayReference: session.id, ...saved, verified: true }
}

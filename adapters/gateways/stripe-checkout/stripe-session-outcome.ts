import type Stripe from "stripe"
import type { DecimalString, GatewayOutcome, ReturnReport } from "../../../core/gateways/gateway-plugin.js"
import { fromStripeMinor, toStripeMinor } from "./stripe-amounts.js"

/** The payment a session is checked against: the kit's own record, never what the browser sent. */
export interface ExpectedPayment {
  readonly trxId: string
  readonly amount: DecimalString
  readonly currency: string
}

const SESSION_ID = /^cs_(test|live)_[A-Za-z0-9_]{1,250}$/

/** A session id as Stripe writes them; anything else is not worth a request. */
export const isSessionId = (text: string): boolean => SESSION_ID.test(text)

export const belongsTo = (session: Stripe.Checkout.Session, trxId: string): boolean => session.client_reference_id === trxId

const chargesExactly = (session: Stripe.Checkout.Session, expected: ExpectedPayment): boolean =>
  session.amount_total !== null &&
  session.currency !== null &&
  session.currency.toLowerCase() === expected.currency.toLowerCase() &&
  Number.isSafeInteger(session.amount_total) &&
  BigInt(session.amount_total) === toStripeMinor(expected.amount, expected.currency)

const UNVERIFIED: ReturnReport = { outcome: "pending", verified: false }

const report = (outcome: GatewayOutcome, session: Stripe.Checkout.Session): ReturnReport => ({ outcome, verified: true, gatewayReference: session.id })

/**
 * What a retrieved session says about this payment. A session for another payment, or for another
 * amount or currency, proves nothing about this one: unverified, so the kit trusts none of it.
 */
export const reportOfSession = (session: Stripe.Checkout.Session, expected: ExpectedPayment): ReturnReport => {
  if (!belongsTo(session, expected.trxId) || !chargesExactly(session, expected)) return UNVERIFIED
  if (session.payment_status === "paid") return report("paid", session)
  if (session.payment_status === "no_payment_required") {
    // Stripe skips payment for a zero total (or a 100% discount): only a free payment is paid that way.
    return toStripeMinor(expected.amount, expected.currency) === 0n ? report("paid", session) : UNVERIFIED
  }
  if (session.status === "expired") return report("cancelled", session)
  if (session.status === "complete" || session.status === "open") return report("pending", session)
  return UNVERIFIED
}

/** The amount and currency a session charges, as the kit writes them, when Stripe says them. */
export const chargedBy = (session: Stripe.Checkout.Session): { amount?: DecimalString; currency?: string } =>
  session.currency === null
    ? {}
    : {
      currency: session.currency.toUpperCase(),
      ...(session.amount_total !== null ? { amount: fromStripeMinor(session.amount_total, session.currency) } : {})
    }

import type Stripe from "stripe"
import type { SavedMethodChargeReport, SavedMethodReport } from "../../../core/gateways/plugin-saved-methods.js"

/**
 * Saved methods through Stripe: a subscription's checkout creates a Customer and sets the card up
 * for off-session use (`payment_intent_data.setup_future_usage`); renewals are PaymentIntents
 * confirmed off-session against that Customer and PaymentMethod.
 */

/** Marks a session whose method is to be saved, so a return or sync knows to report it. */
export const SAVE_METHOD_METADATA = "save_method"

/** The reference the kit stores (sealed): Stripe needs both the Customer and the PaymentMethod. */
export const methodReference = (customer: string, paymentMethod: string): string => `${customer}|${paymentMethod}`

export const parseMethodReference = (reference: string): { readonly customer: string; readonly paymentMethod: string } | undefined => {
  const match = /^(cus_[A-Za-z0-9]+)\|(pm_[A-Za-z0-9_]+)$/.exec(reference)
  return match === null ? undefined : { customer: match[1]!, paymentMethod: match[2]! }
}

const idOf = (value: string | { readonly id: string } | null): string | null => (value === null ? null : typeof value === "string" ? value : value.id)

/** The saved card a paid PaymentIntent or a succeeded SetupIntent (retrieved with its payment_method expanded) carries, if any. */
export const savedMethodOfIntent = (intent: Pick<Stripe.PaymentIntent | Stripe.SetupIntent, "customer" | "payment_method">): SavedMethodReport | undefined => {
  const customer = idOf(intent.customer as string | { readonly id: string } | null)
  const method = intent.payment_method
  if (customer === null || method === null || typeof method === "string" || method.card === undefined || method.card === null) return undefined
  return {
    reference: methodReference(customer, method.id),
    brand: /^[a-z][a-z0-9_ -]{0,31}$/.test(method.card.brand) ? method.card.brand : "card",
    last4: method.card.last4,
    expMonth: method.card.exp_month,
    expYear: method.card.exp_year
  }
}

/**
 * Stripe's decline codes that no retry will fix: the card is gone, closed or refused for good
 * (Stripe's "hard declines"). Every other decline (insufficient funds, a generic or velocity decline,
 * try again later) may go through later, and is retried on the merchant's schedule.
 */
const HARD_DECLINES: ReadonlySet<string> = new Set([
  "lost_card",
  "stolen_card",
  "pickup_card",
  "restricted_card",
  "expired_card",
  "incorrect_number",
  "invalid_account",
  "card_not_supported",
  "currency_not_supported",
  "fraudulent",
  "merchant_blacklist",
  "revocation_of_all_authorizations",
  "revocation_of_authorization",
  "security_violation",
  "stop_payment_order",
  "do_not_try_again",
  "new_account_information_available",
  "transaction_not_allowed"
])

/** A card error of an off-session charge, as the kit's verdict. */
export const reportOfCardError = (
  error: { readonly code?: string | undefined; readonly decline_code?: string | undefined; readonly message: string; readonly payment_intent?: { readonly id?: string } | undefined }
): SavedMethodChargeReport => {
  const gatewayReference = error.payment_intent?.id
  const withReference = gatewayReference === undefined ? {} : { gatewayReference }
  if (error.code === "authentication_required" || error.decline_code === "authentication_required") {
    return { status: "authentication_required", message: error.message, ...withReference }
  }
  if (error.decline_code !== undefined && HARD_DECLINES.has(error.decline_code)) {
    return { status: "hard_declined", message: `${error.message} (${error.decline_code})`, ...withReference }
  }
  if (error.code === "expired_card" || error.code === "incorrect_number" || error.code === "card_decline_rate_limit_exceeded") {
    return error.code === "card_decline_rate_limit_exceeded"
      ? { status: "declined", message: error.message, ...withReference }
      : { status: "hard_declined", message: `${error.message} (${error.code})`, ...withReference }
  }
  return { status: "declined", message: error.decline_code === undefined ? error.message : `${error.message} (${error.decline_code})`, ...withReference }
}

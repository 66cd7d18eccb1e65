import type { SavedMethodFacts } from "../../../core/subscriptions/saved-methods.js"
import type { Subscription } from "../../../core/subscriptions/subscription.js"
import type { PortalMessages } from "./portal-messages.js"

/** Where the customer changes how a subscription is paid: a form posted with the session's token. */
export interface PaymentMethodLink {
  /** The form's action (POST). */
  readonly href: string
  /** Plain text, in the page's language; the page escapes it. */
  readonly label: string
}

/**
 * "Update payment method" on a subscription's card: offered when the subscription has a saved method
 * (renewals charge it) and is not cancelled. The post (portal-steps.ts) sends the customer to the
 * hosted checkout of the open invoice, or with nothing to pay to a setup-only session, or says when
 * the card can be changed. `portalBase` is the portal's absolute address; `carried` the page's `?locale=`.
 */
export const paymentMethodLink = (
  subscription: Subscription,
  portalBase: string,
  carried: string,
  t: PortalMessages
): PaymentMethodLink | undefined =>
  subscription.savedMethodId === null || subscription.status === "cancelled"
    ? undefined
    : { href: `${portalBase}/subscriptions/${subscription.id}/payment-method${carried}`, label: t.updatePaymentMethod }

/** A saved card as the customer reads it: "Visa ending in 4242, expires 12/2034" (the API's saved_payment_method facts). */
export const savedCardText = (method: SavedMethodFacts, t: PortalMessages) =>
  t.cardOnFile(
    method.brand.charAt(0).toUpperCase() + method.brand.slice(1),
    method.last4,
    `${String(method.expMonth).padStart(2, "0")}/${method.expYear}`
  )

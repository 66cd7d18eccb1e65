import type { Subscription } from "../../../core/subscriptions/subscription.js"

/** Where the customer changes how a subscription is paid. */
export interface PaymentMethodLink {
  readonly href: string
  /** Plain text, in the page's language; the page escapes it. */
  readonly label: string
}

/**
 * "Update payment method" on a subscription's card. None yet: saved payment methods (issue 36 item 2)
 * land separately, and their update flow is linked from here, the one place the card asks.
 * `portalBase` is the portal's absolute address, for a page under it.
 */
export const paymentMethodLink = (_subscription: Subscription, _portalBase: string): PaymentMethodLink | undefined => undefined

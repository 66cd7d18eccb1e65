import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import { CheckoutLinks } from "../payments/checkout-links.js"
import { type Instant, now, toSeconds } from "../shared/instant.js"
import { latestInvoice } from "./invoices.js"
import { isOpen } from "./lifecycle.js"
import type { Subscription } from "./subscription.js"

/** Why a subscription's method cannot be updated now; the message is the customer's. */
export class MethodUpdateUnavailable extends Schema.TaggedError<MethodUpdateUnavailable>()("MethodUpdateUnavailable", {
  subscriptionId: Schema.String,
  message: Schema.String
}) {}

/** Where the customer goes to give another method, and until when the link works. */
export interface MethodUpdateStart {
  readonly url: string
  readonly expiresAt: Instant
}

/**
 * The customer portal's "update the saved method" (issue 36): the hosted checkout of the
 * subscription's open invoice. Every subscription invoice's checkout saves the method it is paid
 * with (a gateway with saved methods), and the newest saved method is the one renewals charge, so
 * paying there with another card replaces the method. It is what a customer whose renewal charge
 * failed needs: pay now, with a card that works. A subscription with nothing to pay (its period is
 * paid) has no such checkout: refused here, and the portal turns to a setup-only session
 * (method-setup.ts) when the method's gateway offers one.
 */
export const startMethodUpdate = (subscription: Subscription) =>
  Effect.gen(function*() {
    if (subscription.status === "cancelled") {
      return yield* new MethodUpdateUnavailable({ subscriptionId: subscription.id, message: "This subscription is cancelled." })
    }
    const at = yield* now
    const invoice = yield* latestInvoice(subscription.id)
    if (invoice === undefined || !isOpen(invoice, at) || invoice.trxId === null || invoice.checkoutExpiresAt === null) {
      return yield* new MethodUpdateUnavailable({
        subscriptionId: subscription.id,
        message: "There is nothing to pay now: the payment method can be changed when the next invoice is issued."
      })
    }
    const links = yield* CheckoutLinks
    return { url: links.linkFor(invoice.trxId, toSeconds(invoice.checkoutExpiresAt)), expiresAt: invoice.checkoutExpiresAt } satisfies MethodUpdateStart
  })

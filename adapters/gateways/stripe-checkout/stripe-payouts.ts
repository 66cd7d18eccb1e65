import type Stripe from "stripe"
import type { CallTrace, PayoutContext, PayoutReport } from "../../../core/gateways/gateway-plugin.js"
import { stripeAmountParam, toStripeMinor } from "./stripe-amounts.js"
import type { StripeCheckoutConfig } from "./stripe-checkout-config.js"
import { StripeCallError, stripeCall } from "./stripe-errors.js"

/** The destination types the Stripe plugin pays to: connected accounts, by Stripe Connect transfers. */
export const STRIPE_PAYOUT_DESTINATIONS = ["stripe_account"] as const

/**
 * A payout as a Stripe Connect transfer from the platform's balance to the merchant's connected
 * account, under the payout's id as idempotency key: however often the kit asks, Stripe moves it once.
 * A created transfer is in the account's balance, so the payout is paid with the transfer's id; a
 * refusal Stripe would repeat (no such account, too little balance) fails it with Stripe's words;
 * anything else (network, 5xx, a key refused) is thrown, and the payout stays approved.
 */
export const sendStripeTransfer = async (
  context: PayoutContext<StripeCheckoutConfig>,
  client: () => Promise<Stripe>,
  headers: (trace: CallTrace) => Stripe.RequestOptions
): Promise<PayoutReport> => {
  const { config, destination } = context
  if (destination.type !== "stripe_account") return { status: "failed", reason: "the Stripe plugin pays Stripe connected accounts only" }
  try {
    const transfer = await stripeCall(config, async () =>
      (await client()).transfers.create({
        amount: stripeAmountParam(toStripeMinor(context.amount, context.currency)),
        currency: context.currency.toLowerCase(),
        destination: destination.accountId,
        transfer_group: context.payoutId,
        metadata: { payout_id: context.payoutId, merchant_id: String(context.merchantId) }
      }, { idempotencyKey: context.idempotencyKey, ...headers(context) }))
    return { status: "paid", reference: transfer.id }
  } catch (error) {
    if (error instanceof StripeCallError && error.permanent) return { status: "failed", reason: `Stripe refused the transfer: ${error.message}` }
    throw error
  }
}

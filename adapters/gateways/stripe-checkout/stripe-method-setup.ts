import type Stripe from "stripe"
import type { SetupContext, SetupReturnContext } from "../../../core/gateways/gateway-plugin.js"
import type { SetupReport } from "../../../core/gateways/plugin-method-setup.js"
import type { StripeCheckoutConfig } from "./stripe-checkout-config.js"
import { StripeCallError, stripeCall } from "./stripe-errors.js"
import { parseMethodReference, savedMethodOfIntent } from "./stripe-saved-methods.js"
import { isSessionId } from "./stripe-session-outcome.js"

/**
 * Replacing a saved card with nothing to pay: a Checkout Session in `setup` mode. It names the
 * Customer of the card it replaces (so renewals keep charging one Customer), or creates one; Stripe
 * wants a currency in setup mode unless the payment method types are named. The session and its
 * SetupIntent carry the kit's setup id, and the return is checked against it.
 */

/** Marks the kit's setup sessions (and their SetupIntents) with the setup they serve. */
export const SETUP_METADATA = "setup_id"

type Client = () => Promise<Stripe>

export const beginStripeSetup = async (
  context: SetupContext<StripeCheckoutConfig>,
  client: Client,
  options: Stripe.RequestOptions,
  successUrl: string
) => {
  const { config } = context
  const customer = context.currentMethod === null ? undefined : parseMethodReference(context.currentMethod)?.customer
  const stripe = await client()
  const session = await stripeCall(config, () =>
    stripe.checkout.sessions.create({
      mode: "setup",
      currency: context.currency.toLowerCase(),
      ...(customer !== undefined
        ? { customer }
        : { customer_creation: "always" as const, customer_email: context.customerEmail }),
      client_reference_id: context.setupId,
      metadata: { [SETUP_METADATA]: context.setupId },
      setup_intent_data: { metadata: { [SETUP_METADATA]: context.setupId } },
      success_url: successUrl,
      cancel_url: context.cancelUrl,
      ...(config.payment_method_types !== undefined ? { payment_method_types: [...config.payment_method_types] } : {})
    }, options))
  if (session.url === null) throw new Error(`Stripe created Checkout Session ${session.id} without a setup page URL`)
  return { redirect: session.url, gatewayReference: session.id }
}

const UNVERIFIED: SetupReport = { outcome: "pending", verified: false }

/**
 * The return from a setup session: the session (by the browser's `session_id`, else the one on
 * record) fetched from Stripe and checked to be this setup's, then its SetupIntent with the card.
 */
export const stripeSetupReport = async (context: SetupReturnContext<StripeCheckoutConfig>, client: Client, options: Stripe.RequestOptions): Promise<SetupReport> => {
  const fromBrowser = context.fields["session_id"]
  const sessionId = fromBrowser !== undefined && fromBrowser !== "" ? fromBrowser : context.gatewayReference
  if (sessionId === null || !isSessionId(sessionId)) return UNVERIFIED
  const { config } = context
  try {
    const session = await stripeCall(config, async () => (await client()).checkout.sessions.retrieve(sessionId, {}, options))
    if (session.mode !== "setup" || session.metadata?.[SETUP_METADATA] !== context.setupId || session.client_reference_id !== context.setupId) return UNVERIFIED
    if (session.status === "expired") return { outcome: "cancelled", verified: true }
    const intentId = typeof session.setup_intent === "string" ? session.setup_intent : session.setup_intent?.id
    if (session.status !== "complete" || intentId === undefined) return { outcome: "pending", verified: true }
    const intent = await stripeCall(config, async () => (await client()).setupIntents.retrieve(intentId, { expand: ["payment_method"] }, options))
    if (intent.status !== "succeeded" || intent.metadata?.[SETUP_METADATA] !== context.setupId) return { outcome: "pending", verified: true }
    const saved = savedMethodOfIntent(intent)
    return saved === undefined ? { outcome: "pending", verified: true } : { outcome: "saved", verified: true, savedMethod: saved }
  } catch (error) {
    if (error instanceof StripeCallError && error.permanent) return UNVERIFIED
    throw error
  }
}

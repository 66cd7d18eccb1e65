import type Stripe from "stripe"
import type { Environment } from "../../../core/shared/environment.js"
import {
  type CallTrace,
  GATEWAY_PLUGIN_API_VERSION,
  type GatewayPluginDefinition,
  type RefundReport,
  type ReturnReport
} from "../../../core/gateways/gateway-plugin.js"
import { stripeAmountParam, toStripeMinor } from "./stripe-amounts.js"
import { parseStripeCheckoutConfig, type StripeCheckoutConfig } from "./stripe-checkout-config.js"
import { assertKeyServes, makeStripeClients } from "./stripe-client.js"
import type { SavedMethodReport } from "../../../core/gateways/plugin-saved-methods.js"
import { submitStripeEvidence } from "./stripe-dispute-evidence.js"
import { isMissing, StripeCallError, stripeCall } from "./stripe-errors.js"
import { reportOfNotification } from "./stripe-notifications.js"
import { sendStripeTransfer, STRIPE_PAYOUT_DESTINATIONS } from "./stripe-payouts.js"
import { reportOfRefund } from "./stripe-refund-report.js"
import { settlementLines } from "./stripe-settlement.js"
import { belongsTo, chargedBy, isSessionId, reportOfSession } from "./stripe-session-outcome.js"
import { loadStripe } from "./stripe-client.js"
import { beginStripeSetup, stripeSetupReport } from "./stripe-method-setup.js"
import { parseMethodReference, reportOfCardError, SAVE_METHOD_METADATA, savedMethodOfIntent } from "./stripe-saved-methods.js"

export const STRIPE_CHECKOUT_PLUGIN_ID = "stripe-checkout"

/** Stripe swaps this placeholder for the session id when it sends the customer back. */
const SESSION_PLACEHOLDER = "session_id={CHECKOUT_SESSION_ID}"

/** Built by hand: URL would percent-encode the braces and Stripe would no longer recognise the placeholder. */
export const successUrlOf = (returnUrl: string): string => {
  const hashAt = returnUrl.indexOf("#")
  const base = hashAt === -1 ? returnUrl : returnUrl.slice(0, hashAt)
  const hash = hashAt === -1 ? "" : returnUrl.slice(hashAt)
  const separator = !base.includes("?") ? "?" : base.endsWith("?") || base.endsWith("&") ? "" : "&"
  return `${base}${separator}${SESSION_PLACEHOLDER}${hash}`
}

/** Stripe shows this as the product's name; its own limit is generous, a customer reads one line. */
const productNameOf = (description: string | null, merchantName: string): string => {
  const text = description !== null && description.trim() !== "" ? description.trim() : merchantName
  const characters = Array.from(text)
  return characters.length > 250 ? `${characters.slice(0, 249).join("")}…` : text
}

const UNVERIFIED: ReturnReport = { outcome: "pending", verified: false }

const refundFailed = (message: string): RefundReport => ({ status: "failed", message })

/** The kit's trace context on each Stripe request, when the host traces. */
const traceHeaders = (trace: CallTrace): Stripe.RequestOptions =>
  trace.traceparent === undefined ? {} : { headers: { traceparent: trace.traceparent } }

/** Stripe Checkout: the customer pays on Stripe's hosted page; webhooks, status sync, refunds, Connect payouts and dispute evidence included. */
export const makeStripeCheckoutPlugin = (): GatewayPluginDefinition<StripeCheckoutConfig> => {
  const clients = makeStripeClients()
  const clientFor = (config: StripeCheckoutConfig, environment: Environment): Promise<Stripe> => {
    assertKeyServes(config, environment)
    return clients(config)
  }
  const retrieveSession = (config: StripeCheckoutConfig, environment: Environment, id: string, trace: CallTrace) =>
    stripeCall(config, async () => (await clientFor(config, environment)).checkout.sessions.retrieve(id, {}, traceHeaders(trace)))
  /** The card a paid session saved for off-session use, when its checkout asked to save one. */
  const savedMethodOf = async (
    session: Stripe.Checkout.Session,
    config: StripeCheckoutConfig,
    environment: Environment,
    trace: CallTrace
  ): Promise<{ savedMethod?: SavedMethodReport }> => {
    const intent = typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id
    if (session.metadata?.[SAVE_METHOD_METADATA] !== "off_session" || session.payment_status !== "paid" || intent === undefined) return {}
    const retrieved = await stripeCall(config, async () =>
      (await clientFor(config, environment)).paymentIntents.retrieve(intent, { expand: ["payment_method"] }, traceHeaders(trace)))
    const saved = savedMethodOfIntent(retrieved)
    return saved === undefined ? {} : { savedMethod: saved }
  }

  return {
    id: STRIPE_CHECKOUT_PLUGIN_ID,
    displayName: "Stripe Checkout",
    version: "1.0.0",
    apiVersion: GATEWAY_PLUGIN_API_VERSION,
    currencies: "any",
    environments: ["sandbox", "production"],
    capabilities: { notifications: true, statusSync: true, refunds: true, partialRefunds: true, payouts: true, disputeEvidence: true, savedMethods: true },
    secretConfigKeys: ["secret_key", "webhook_secret"],
    payoutDestinationTypes: STRIPE_PAYOUT_DESTINATIONS,

    parseConfig(raw) {
      return parseStripeCheckoutConfig(raw)
    },

    async beginCheckout(context) {
      const { config } = context
      const client = await clientFor(config, context.environment)
      const unitAmount = stripeAmountParam(toStripeMinor(context.amount, context.currency))
      const session = await stripeCall(config, () =>
        client.checkout.sessions.create({
          mode: "payment",
          line_items: [{
            quantity: 1,
            price_data: {
              currency: context.currency.toLowerCase(),
              unit_amount: unitAmount,
              product_data: { name: productNameOf(context.description, context.merchantName) }
            }
          }],
          client_reference_id: context.trxId,
          ...(context.saveMethod === undefined
            ? { metadata: { trx_id: context.trxId }, payment_intent_data: { metadata: { trx_id: context.trxId } } }
            : {
              // A subscription's invoice: a Customer holds the card, set up for renewals without the customer.
              metadata: { trx_id: context.trxId, [SAVE_METHOD_METADATA]: "off_session" },
              payment_intent_data: { metadata: { trx_id: context.trxId }, setup_future_usage: "off_session" as const },
              customer_creation: "always" as const,
              ...(context.saveMethod.customerEmail !== null ? { customer_email: context.saveMethod.customerEmail } : {})
            }),
          success_url: successUrlOf(context.returnUrl),
          cancel_url: context.cancelUrl,
          ...(config.payment_method_types !== undefined ? { payment_method_types: [...config.payment_method_types] } : {})
        }, traceHeaders(context)))
      if (session.url === null) throw new Error(`Stripe created Checkout Session ${session.id} without a payment page URL`)
      return { redirect: session.url, gatewayReference: session.id }
    },

    async handleReturn(context) {
      // The browser's session_id is only a hint: the session is fetched from Stripe and checked against the payment.
      const fromBrowser = context.fields["session_id"]
      const sessionId = fromBrowser !== undefined && fromBrowser !== "" ? fromBrowser : context.gatewayReference
      if (sessionId === null || !isSessionId(sessionId)) return UNVERIFIED
      try {
        const session = await retrieveSession(context.config, context.environment, sessionId, context)
        const report = reportOfSession(session, context)
        return report.verified && report.outcome === "paid" ? { ...report, ...(await savedMethodOf(session, context.config, context.environment, context)) } : report
      } catch (error) {
        if (error instanceof StripeCallError && error.permanent) return UNVERIFIED
        throw error
      }
    },

    handleNotification(context) {
      const { config, environment } = context
      return reportOfNotification(context, {
        async trxIdOfIntent(paymentIntent) {
          try {
            const intent = await stripeCall(config, async () =>
              (await clientFor(config, environment)).paymentIntents.retrieve(paymentIntent, {}, traceHeaders(context)))
            const trxId = intent.metadata["trx_id"]
            return typeof trxId === "string" && trxId !== "" ? trxId : undefined
          } catch (error) {
            // Another account's or a deleted PaymentIntent names no payment of the kit's.
            if (isMissing(error)) return undefined
            throw error
          }
        },
        savedMethodOf: (session) => savedMethodOf(session, config, environment, context)
      })
    },

    async syncStatus(context) {
      const reference = context.gatewayReference
      if (reference === null || !isSessionId(reference)) return { outcome: "pending" }
      let session: Stripe.Checkout.Session
      try {
        session = await retrieveSession(context.config, context.environment, reference, context)
      } catch (error) {
        if (isMissing(error)) return { outcome: "pending" }
        throw error
      }
      if (!belongsTo(session, context.trxId)) return { outcome: "pending" }
      const { outcome } = reportOfSession(session, context)
      const saved = outcome === "paid" ? await savedMethodOf(session, context.config, context.environment, context) : {}
      return { outcome, ...chargedBy(session), gatewayReference: session.id, ...saved }
    },

    async refund(context) {
      const { config } = context
      const reference = context.gatewayReference
      if (reference === null || !isSessionId(reference)) return refundFailed("this payment has no Stripe Checkout Session to refund")
      try {
        const session = await retrieveSession(config, context.environment, reference, context)
        if (!belongsTo(session, context.trxId)) return refundFailed("the Stripe Checkout Session on record belongs to another payment")
        if (session.currency?.toLowerCase() !== context.currency.toLowerCase()) return refundFailed("the Stripe Checkout Session was paid in another currency")
        const paymentIntent = typeof session.payment_intent === "string" ? session.payment_intent : session.payment_intent?.id
        if (paymentIntent === undefined) return refundFailed("the Stripe Checkout Session has no payment to refund")
        const amount = stripeAmountParam(toStripeMinor(context.amount, context.currency))
        const refund = await stripeCall(config, async () =>
          (await clientFor(config, context.environment)).refunds.create(
            { payment_intent: paymentIntent, amount, metadata: { trx_id: context.trxId, refund_trx_id: context.refundTrxId } },
            { idempotencyKey: context.idempotencyKey, ...traceHeaders(context) }
          ))
        return reportOfRefund(refund)
      } catch (error) {
        if (error instanceof StripeCallError && error.permanent) return refundFailed(error.message)
        throw error
      }
    },

    async settlementReport(context) {
      const { config } = context
      const client = await clientFor(config, context.environment)
      // Stripe counts whole seconds: the period's first whole second on, up to the one holding its end.
      const period = { gte: Math.ceil(Date.parse(context.from) / 1000), lt: Math.ceil(Date.parse(context.to) / 1000) }
      return stripeCall(config, () => settlementLines(client, period, traceHeaders(context)))
    },
    sendPayout(context) {
      return sendStripeTransfer(context, () => clientFor(context.config, context.environment), traceHeaders)
    },

    submitDisputeEvidence(context) {
      return submitStripeEvidence(context, () => clientFor(context.config, context.environment), traceHeaders)
    },

    beginSetup(context) {
      return beginStripeSetup(context, () => clientFor(context.config, context.environment), traceHeaders(context), successUrlOf(context.returnUrl))
    },

    handleSetupReturn(context) {
      return stripeSetupReport(context, () => clientFor(context.config, context.environment), traceHeaders(context))
    },

    async chargeSaved(context) {
      const { config } = context
      const method = parseMethodReference(context.method)
      if (method === undefined) return { status: "hard_declined", message: "the saved method is not a Stripe customer's PaymentMethod" }
      const client = await clientFor(config, context.environment)
      const { errors } = await loadStripe()
      const amount = stripeAmountParam(toStripeMinor(context.amount, context.currency))
      // Card errors are answers, not failures: caught before stripeCall makes them StripeCallErrors.
      const answer = await stripeCall(config, async () => {
        try {
          return { intent: await client.paymentIntents.create({
            amount,
            currency: context.currency.toLowerCase(),
            customer: method.customer,
            payment_method: method.paymentMethod,
            off_session: true,
            confirm: true,
            metadata: { reference: context.reference }
          }, { idempotencyKey: context.idempotencyKey, ...traceHeaders(context) }) }
        } catch (error) {
          if (error instanceof errors.StripeCardError) {
            return { refused: reportOfCardError({ message: error.message, code: error.code, decline_code: error.decline_code, payment_intent: error.payment_intent }) }
          }
          throw error
        }
      })
      if ("refused" in answer) return answer.refused
      const { intent } = answer
      if (intent.status === "succeeded") return { status: "paid", gatewayReference: intent.id }
      if (intent.status === "requires_action") return { status: "authentication_required", message: "Stripe requires the customer to authenticate this payment.", gatewayReference: intent.id }
      if (intent.status === "requires_payment_method") return { status: "declined", message: "Stripe declined the saved payment method.", gatewayReference: intent.id }
      // Processing (a bank debit) has no verdict yet: the kit asks again later with the same key.
      throw new Error(`Stripe left PaymentIntent ${intent.id} ${intent.status}; no verdict yet`)
    }
  }
}

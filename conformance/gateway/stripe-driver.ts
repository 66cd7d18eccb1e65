import { makeStripeCheckoutPlugin } from "../../adapters/gateways/stripe-checkout/index.js"
import { stripeAmountParam, toStripeMinor } from "../../adapters/gateways/stripe-checkout/stripe-amounts.js"
import { type FakeStripe, makeFakeStripe, sessionIdFromRedirect } from "../../adapters/gateways/stripe-checkout/testing/fake-stripe.js"
import type { StoreConfig } from "../../hosts/kit-layer.js"
import type { CheckoutAtGateway } from "./driver.js"
import { gatewayPluginConformance } from "./suite.js"

const WEBHOOK_SECRET = "whsec_conformanceWebhookSecret000000"
let fake: FakeStripe | undefined

const sessionOf = (checkout: CheckoutAtGateway) => {
  if (!("redirect" in checkout.start)) throw new Error("Stripe Checkout always redirects")
  return sessionIdFromRedirect(checkout.start.redirect)
}

/** The events Stripe sends for each ending, and the session as each shows it. */
const EVENTS = {
  paid: { type: "checkout.session.completed", session: { status: "complete", payment_status: "paid" } },
  declined: { type: "checkout.session.async_payment_failed", session: { status: "complete", payment_status: "unpaid" } },
  cancelled: { type: "checkout.session.expired", session: { status: "expired" } }
} as const

/** Stripe Checkout against the local fake of Stripe's API: the customer pays on the fake's page. */
export const stripeCheckoutConformance = (store?: { readonly label: string; readonly config: () => StoreConfig }) =>
  gatewayPluginConformance(makeStripeCheckoutPlugin(), {
    ...(store !== undefined ? { store: store.config, label: store.label } : {}),
    setup: async () => {
      fake = makeFakeStripe()
      await fake.start()
    },
    teardown: () => fake?.close(),
    // Every call crosses real HTTP to the fake; leave room above its few milliseconds.
    callTimeoutMillis: 2_000,
    driver: {
      get config() {
        return { secret_key: fake!.secretKey, webhook_secret: WEBHOOK_SECRET, api_base: fake!.apiBase }
      },
      customer: async (checkout, outcome) => {
        const session = sessionOf(checkout)
        if (outcome === "paid") {
          fake!.pay(session)
          return { returnFields: { session_id: session } }
        }
        // Checkout itself never returns a decline: a delayed method fails later, told by notification only.
        if (outcome === "declined") {
          fake!.payLater(session)
          fake!.asyncFail(session)
          return undefined
        }
        return { cancels: true }
      },
      notification: async (checkout, outcome, options) => {
        const { session, type } = EVENTS[outcome]
        const amount = options?.amount === undefined ? {} : { amount_total: stripeAmountParam(toStripeMinor(options.amount, checkout.currency)) }
        return fake!.event(type, sessionOf(checkout), { secret: WEBHOOK_SECRET, session: { ...session, ...amount } })
      },
      misSign: (notification) => ({
        ...notification,
        headers: { ...notification.headers, "stripe-signature": notification.headers["stripe-signature"]!.replace(/v1=[0-9a-f]+/, `v1=${"0".repeat(64)}`) }
      }),
      savingCustomer: async (checkout, kind) => {
        const session = sessionOf(checkout)
        fake!.payAndSave(session, kind === "chargeable" ? "succeeds" : "insufficient_funds")
        return { session_id: session }
      },
      refundsReceived: async (checkout) => {
        const intent = fake!.session(sessionOf(checkout))["payment_intent"]
        return typeof intent === "string" ? fake!.refundsFor(intent).map((refund) => ({ idempotencyKey: refund.idempotencyKey ?? undefined })) : []
      }
    }
  })

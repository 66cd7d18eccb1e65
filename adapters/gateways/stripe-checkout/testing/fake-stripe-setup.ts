import { type ApiAnswer, type CardBehaviour, type FakeStripeState, type FormParams, invalid, listed, missing, nested } from "./fake-stripe-api.js"
import { checkoutSession, type JsonObject, stripeId } from "./fake-stripe-objects.js"

/**
 * `mode=setup` Checkout Sessions, as Stripe checks them: no line items, a currency unless the payment
 * method types are named, an existing `customer` or `customer_creation`; the session's SetupIntent,
 * created with it, carries `setup_intent_data[metadata]` and saves the card to the Customer.
 */
export const createSetupSession = (state: FakeStripeState, params: FormParams): ApiAnswer => {
  if ([...params.keys()].some((key) => key.startsWith("line_items") || key.startsWith("payment_intent_data"))) {
    return invalid("You can not pass `line_items` or `payment_intent_data` in `setup` mode.", "line_items")
  }
  const types = params.has("payment_method_types[0]") ? listed(params, "payment_method_types") : undefined
  const currency = params.get("currency")
  if (types === undefined && (currency === undefined || !/^[a-z]{3}$/.test(currency))) {
    return invalid("`currency` is required in `setup` mode when `payment_method_types` is not set.", "currency")
  }
  const customer = params.get("customer")
  if (customer !== undefined && !/^cus_[A-Za-z0-9]+$/.test(customer)) return missing("customer", customer, "customer")
  const creation = params.get("customer_creation")
  if (customer !== undefined && creation !== undefined) return invalid("You may only specify one of these parameters: customer, customer_creation.", "customer_creation")
  const successUrl = params.get("success_url") ?? null
  if (successUrl === null || !URL.canParse(successUrl)) return invalid("Not a valid URL", "success_url")
  const id = stripeId(state.livemode ? "cs_live_c1" : "cs_test_c1", 56)
  const intent = stripeId("seti_")
  state.setupIntents.set(intent, {
    id: intent, object: "setup_intent", status: "requires_payment_method", usage: "off_session", customer: customer ?? null,
    payment_method: null, livemode: state.livemode, metadata: nested(params, "setup_intent_data[metadata]")
  })
  const session: JsonObject = {
    ...checkoutSession({
      id, livemode: state.livemode, url: `${state.apiBase()}/pay/${id}`, amount: 0, currency: currency ?? "usd",
      clientReferenceId: params.get("client_reference_id") ?? null, metadata: nested(params, "metadata"), successUrl,
      cancelUrl: params.get("cancel_url") ?? null, paymentMethodTypes: types ?? ["card"]
    }),
    mode: "setup", amount_subtotal: null, amount_total: null, payment_status: "no_payment_required", setup_intent: intent,
    customer: customer ?? null, customer_creation: creation ?? "if_required", customer_email: params.get("customer_email") ?? null
  }
  state.sessions.set(id, session)
  return { status: 200, body: session }
}

/** GET /v1/setup_intents/{id}, its payment_method expanded when asked. */
export const retrieveSetupIntent = (state: FakeStripeState, id: string, params: FormParams): ApiAnswer => {
  const intent = state.setupIntents.get(id)
  if (intent === undefined) return missing("setup_intent", id, "intent")
  const method = intent["payment_method"]
  const saved = typeof method === "string" ? state.paymentMethods.get(method) : undefined
  return { status: 200, body: listed(params, "expand").includes("payment_method") && saved !== undefined ? { ...intent, payment_method: saved.paymentMethod } : intent }
}

/** The customer completes a setup session: a card of `behaviour` saved to its Customer (made now when it had none). */
export const completeSetupSession = (state: FakeStripeState, session: JsonObject, behaviour: CardBehaviour, last4: string) => {
  if (session["mode"] !== "setup" || session["status"] !== "open") throw new Error(`session ${String(session["id"])} is not an open setup session`)
  const intent = state.setupIntents.get(session["setup_intent"] as string)!
  const customer = (session["customer"] as string | null) ?? (session["customer_creation"] === "always" ? stripeId("cus_", 14) : null)
  if (customer === null) throw new Error("a setup session without a customer saves no card for later")
  const paymentMethod = stripeId("pm_", 24)
  state.paymentMethods.set(paymentMethod, {
    customer,
    behaviour,
    paymentMethod: { id: paymentMethod, object: "payment_method", type: "card", customer, card: { brand: "visa", last4, exp_month: 9, exp_year: 2032 } }
  })
  Object.assign(intent, { status: "succeeded", customer, payment_method: paymentMethod })
  Object.assign(session, { status: "complete", customer, url: null })
  return { customer, paymentMethod }
}

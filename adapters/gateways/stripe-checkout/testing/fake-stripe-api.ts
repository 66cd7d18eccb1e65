import { checkoutSession, errorBody, type JsonObject, paymentIntentObject, refundObject, stripeId, transferObject } from "./fake-stripe-objects.js"

/**
 * The fake's API behaviour without the HTTP around it: form params in, status and JSON out.
 * Params arrive flat, exactly as stripe-node writes them (`line_items[0][price_data][unit_amount]`).
 */
export type FormParams = ReadonlyMap<string, string>

export interface ApiAnswer {
  readonly status: number
  readonly body: JsonObject
}

export interface RecordedRefund {
  readonly refund: JsonObject
  readonly idempotencyKey: string | null
  readonly params: Readonly<Record<string, string>>
}

export interface RecordedTransfer {
  readonly transfer: JsonObject
  readonly idempotencyKey: string | null
}

/** How a saved test card answers off-session charges, as Stripe's test cards do. */
export type CardBehaviour = "succeeds" | "insufficient_funds" | "lost_card" | "authentication_required"

export interface SavedCard {
  readonly paymentMethod: JsonObject
  readonly customer: string
  readonly behaviour: CardBehaviour
}

export interface FakeStripeState {
  readonly livemode: boolean
  readonly apiBase: () => string
  readonly sessions: Map<string, JsonObject>
  readonly refunds: Map<string, RecordedRefund>
  readonly transfers: Map<string, RecordedTransfer>
  /** The platform's connected accounts: a transfer names one of them. */
  readonly connectedAccounts: Set<string>
  /** The platform's available balance per currency, in minor units: a transfer beyond it is refused. */
  readonly available: Map<string, bigint>
  /** Each session's `payment_intent_data[metadata]`: the PaymentIntent made when it is paid carries it. */
  readonly intentMetadata: Map<string, Readonly<Record<string, string>>>
  /** Each session's `payment_intent_data[setup_future_usage]`, when asked: its method may then be saved. */
  readonly intentSetup: Map<string, string>
  /** Cards saved to customers (PaymentMethod id to it), and the method each PaymentIntent was paid with. */
  readonly paymentMethods: Map<string, SavedCard>
  readonly intentMethods: Map<string, string>
  /** SetupIntents of `mode=setup` sessions (fake-stripe-setup.ts), by id. */
  readonly setupIntents: Map<string, JsonObject>
  nextRefundStatus: { readonly status: string; readonly failureReason: string | null } | null
}

export const invalid = (message: string, param?: string, code?: string): ApiAnswer => ({
  status: 400,
  body: errorBody("invalid_request_error", message, { ...(param !== undefined ? { param } : {}), ...(code !== undefined ? { code } : {}) })
})

export const missing = (kind: string, id: string, param: string): ApiAnswer => ({
  status: 404,
  body: errorBody("invalid_request_error", `No such ${kind}: '${id}'`, { code: "resource_missing", param })
})

/** Everything under `prefix[...]` as a record keyed by the inner name: `metadata[trx_id]` -> `trx_id`. */
export const nested = (params: FormParams, prefix: string): Record<string, string> => {
  const record: Record<string, string> = {}
  for (const [key, value] of params) {
    const match = key.startsWith(`${prefix}[`) ? /^\[([^\]]+)\]$/.exec(key.slice(prefix.length)) : null
    if (match !== null) record[match[1]!] = value
  }
  return record
}

export const listed = (params: FormParams, prefix: string): ReadonlyArray<string> => Object.values(nested(params, prefix))

const INTEGER = /^(0|[1-9]\d{0,15})$/

export const createSession = (state: FakeStripeState, params: FormParams): ApiAnswer => {
  const customerCreation = params.get("customer_creation")
  if (customerCreation !== undefined && customerCreation !== "always" && customerCreation !== "if_required") return invalid("Invalid customer_creation", "customer_creation")
  const setup = params.get("payment_intent_data[setup_future_usage]")
  if (setup !== undefined && setup !== "off_session" && setup !== "on_session") return invalid("Invalid setup_future_usage", "payment_intent_data[setup_future_usage]")
  if (params.get("mode") !== "payment") return invalid("This fake only serves `mode=payment` Checkout Sessions.", "mode")
  const item = "line_items[0]"
  const unitAmount = params.get(`${item}[price_data][unit_amount]`)
  const currency = params.get(`${item}[price_data][currency]`)
  const name = params.get(`${item}[price_data][product_data][name]`)
  const quantity = params.get(`${item}[quantity]`)
  if (params.has("line_items[1][quantity]")) return invalid("This fake takes one line item.", "line_items")
  if (unitAmount === undefined || !INTEGER.test(unitAmount)) return invalid("Invalid integer: unit_amount", `${item}[price_data][unit_amount]`)
  if (currency === undefined || !/^[a-z]{3}$/.test(currency)) return invalid("Invalid currency", `${item}[price_data][currency]`)
  if (name === undefined || name === "") return invalid("Missing required param: product_data[name].", `${item}[price_data][product_data][name]`)
  if (quantity === undefined || !INTEGER.test(quantity) || quantity === "0") return invalid("Invalid integer: quantity", `${item}[quantity]`)
  const successUrl = params.get("success_url") ?? null
  if (successUrl === null || !URL.canParse(successUrl)) return invalid("Not a valid URL", "success_url")
  const total = BigInt(unitAmount) * BigInt(quantity)
  const id = stripeId(state.livemode ? "cs_live_a1" : "cs_test_a1", 56)
  const session = checkoutSession({
    id,
    livemode: state.livemode,
    url: `${state.apiBase()}/pay/${id}`,
    amount: Number(total),
    currency,
    clientReferenceId: params.get("client_reference_id") ?? null,
    metadata: nested(params, "metadata"),
    successUrl,
    cancelUrl: params.get("cancel_url") ?? null,
    paymentMethodTypes: params.has("payment_method_types[0]") ? listed(params, "payment_method_types") : ["card"]
  })
  if (customerCreation !== undefined) session["customer_creation"] = customerCreation
  if (params.has("customer_email")) session["customer_email"] = params.get("customer_email")!
  state.sessions.set(id, session)
  state.intentMetadata.set(id, nested(params, "payment_intent_data[metadata]"))
  if (setup !== undefined) state.intentSetup.set(id, setup)
  return { status: 200, body: session }
}

const refunded = (state: FakeStripeState, paymentIntent: string): bigint =>
  [...state.refunds.values()]
    .filter(({ refund }) => refund["payment_intent"] === paymentIntent && refund["status"] !== "failed" && refund["status"] !== "canceled")
    .reduce((sum, { refund }) => sum + BigInt(refund["amount"] as number), 0n)

export const createRefund = (state: FakeStripeState, params: FormParams, idempotencyKey: string | null): ApiAnswer => {
  const paymentIntent = params.get("payment_intent")
  if (paymentIntent === undefined) return invalid("Missing required param: payment_intent.", "payment_intent")
  const session = [...state.sessions.values()].find((candidate) => candidate["payment_intent"] === paymentIntent)
  if (session === undefined) return missing("payment_intent", paymentIntent, "payment_intent")
  if (session["payment_status"] !== "paid") {
    return invalid(`This PaymentIntent (${paymentIntent}) does not have a successful charge to refund.`, "payment_intent", "charge_not_found")
  }
  const remaining = BigInt(session["amount_total"] as number) - refunded(state, paymentIntent)
  const asked = params.get("amount")
  if (asked !== undefined && (!INTEGER.test(asked) || asked === "0")) return invalid("Invalid positive integer", "amount")
  const amount = asked !== undefined ? BigInt(asked) : remaining
  if (amount > remaining) {
    return invalid(`Refund amount (${amount}) is greater than unrefunded amount on charge (${remaining})`, "amount", "amount_too_large")
  }
  const outcome = state.nextRefundStatus ?? { status: "succeeded", failureReason: null }
  state.nextRefundStatus = null
  const refund = refundObject({
    paymentIntent,
    amount: Number(amount),
    currency: session["currency"] as string,
    metadata: nested(params, "metadata"),
    status: outcome.status,
    failureReason: outcome.failureReason
  })
  state.refunds.set(refund["id"] as string, { refund, idempotencyKey, params: Object.fromEntries(params) })
  return { status: 200, body: refund }
}

/** POST /v1/transfers: to one of the platform's connected accounts, out of its available balance. */
export const createTransfer = (state: FakeStripeState, params: FormParams, idempotencyKey: string | null): ApiAnswer => {
  const amount = params.get("amount")
  const currency = params.get("currency")
  const destination = params.get("destination")
  if (amount === undefined || !INTEGER.test(amount) || amount === "0") return invalid("Invalid positive integer", "amount")
  if (currency === undefined || !/^[a-z]{3}$/.test(currency)) return invalid("Invalid currency", "currency")
  if (destination === undefined) return invalid("Missing required param: destination.", "destination")
  if (!state.connectedAccounts.has(destination)) return invalid(`No such destination: '${destination}'`, "destination", "resource_missing")
  const available = state.available.get(currency) ?? 0n
  if (BigInt(amount) > available) {
    return invalid("You have insufficient available funds in your Stripe account. Try adding funds directly to your available balance by creating Charges using the 4000000000000077 test card.", undefined, "balance_insufficient")
  }
  state.available.set(currency, available - BigInt(amount))
  const transfer = transferObject({
    amount: Number(amount),
    currency,
    destination,
    livemode: state.livemode,
    metadata: nested(params, "metadata"),
    transferGroup: params.get("transfer_group") ?? null
  })
  state.transfers.set(transfer["id"] as string, { transfer, idempotencyKey })
  return { status: 200, body: transfer }
}

/** The PaymentIntent a paid (or payLater) session made, with the metadata its checkout asked for. */
export const retrievePaymentIntent = (state: FakeStripeState, id: string, params: FormParams = new Map()): ApiAnswer => {
  const session = [...state.sessions.values()].find((candidate) => candidate["payment_intent"] === id)
  if (session === undefined) return missing("payment_intent", id, "intent")
  const intent = paymentIntentObject(id, session, state.intentMetadata.get(session["id"] as string) ?? {})
  const method = state.intentMethods.get(id)
  const saved = method === undefined ? undefined : state.paymentMethods.get(method)
  if (saved === undefined) return { status: 200, body: intent }
  const expanded = listed(params, "expand").includes("payment_method")
  return {
    status: 200,
    body: {
      ...intent,
      customer: saved.customer,
      setup_future_usage: state.intentSetup.get(session["id"] as string) ?? null,
      payment_method: expanded ? saved.paymentMethod : method
    }
  }
}

const cardError = (message: string, code: string, declineCode: string, intent: JsonObject): ApiAnswer => ({
  status: 402,
  body: { error: { type: "card_error", message, code, decline_code: declineCode, payment_intent: intent } }
})

/** POST /v1/payment_intents, off-session and confirmed at once: a saved card charged as its kind answers. */
export const createOffSessionIntent = (state: FakeStripeState, params: FormParams): ApiAnswer => {
  const amount = params.get("amount")
  const currency = params.get("currency")
  if (amount === undefined || !INTEGER.test(amount) || amount === "0") return invalid("Invalid positive integer", "amount")
  if (currency === undefined || !/^[a-z]{3}$/.test(currency)) return invalid("Invalid currency", "currency")
  if (params.get("confirm") !== "true" || params.get("off_session") !== "true") return invalid("This fake only charges saved cards off-session with confirm=true.", "off_session")
  const method = params.get("payment_method")
  const saved = method === undefined ? undefined : state.paymentMethods.get(method)
  if (method === undefined || saved === undefined) return missing("payment_method", method ?? "", "payment_method")
  if (params.get("customer") !== saved.customer) {
    return invalid(`The provided PaymentMethod was previously used with a PaymentIntent without Customer attachment, or is attached to another Customer.`, "payment_method")
  }
  const base: JsonObject = {
    id: stripeId("pi_"),
    object: "payment_intent",
    amount: Number(amount),
    currency,
    customer: saved.customer,
    payment_method: method,
    livemode: state.livemode,
    metadata: nested(params, "metadata")
  }
  switch (saved.behaviour) {
    case "succeeds":
      return { status: 200, body: { ...base, status: "succeeded", amount_received: Number(amount) } }
    case "insufficient_funds":
      return cardError("Your card has insufficient funds.", "card_declined", "insufficient_funds", { ...base, status: "requires_payment_method" })
    case "lost_card":
      return cardError("Your card has been declined.", "card_declined", "lost_card", { ...base, status: "requires_payment_method" })
    case "authentication_required":
      return cardError("Your card was declined. This transaction requires authentication.", "authentication_required", "authentication_required", { ...base, status: "requires_payment_method" })
  }
}

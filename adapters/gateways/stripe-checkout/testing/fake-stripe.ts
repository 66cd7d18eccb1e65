import { createHmac } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import {
  type ApiAnswer,
  createRefund,
  createSession,
  type CardBehaviour,
  createOffSessionIntent,
  createTransfer,
  type FakeStripeState,
  missing,
  type RecordedRefund,
  type RecordedTransfer,
  retrievePaymentIntent
} from "./fake-stripe-api.js"
import { completeSetupSession, createSetupSession, retrieveSetupIntent } from "./fake-stripe-setup.js"
import { balanceTransaction, chargeOf, listPage } from "./fake-stripe-balance.js"
import { createFile, type FakeDisputeState, updateDispute, type UploadedFile } from "./fake-stripe-disputes.js"
import { disputeObject, errorBody, eventObject, type JsonObject, nowSeconds, stripeId } from "./fake-stripe-objects.js"

export type { RecordedRefund, RecordedTransfer } from "./fake-stripe-api.js"

export const FAKE_STRIPE_SECRET_KEY = "sk_test_fakeStripeKey0000000000000000"

export interface SignedDelivery {
  readonly rawBody: Uint8Array
  readonly headers: Record<string, string>
}

export interface RecordedRequest {
  readonly method: string
  readonly path: string
  readonly params: Readonly<Record<string, string>>
  readonly headers: Readonly<Record<string, string | undefined>>
}

/** The session id in a redirect the fake handed out (`.../pay/cs_test_...`). */
export const sessionIdFromRedirect = (url: string): string => {
  const id = /\/pay\/(cs_(?:test|live)_[A-Za-z0-9]+)$/.exec(new URL(url).pathname)?.[1]
  if (id === undefined) throw new Error(`not a fake Stripe payment page: ${url}`)
  return id
}

/** Stripe's webhook signature: hex HMAC-SHA256 of "t.payload" keyed with the whole `whsec_...` string. */
export const signStripePayload = (payload: string, secret: string, timestamp: number): string =>
  `t=${timestamp},v1=${createHmac("sha256", secret).update(`${timestamp}.${payload}`).digest("hex")}`

interface StoredAnswer {
  readonly request: string
  readonly answer: ApiAnswer
}

const ERROR_TYPES: Readonly<Record<number, string>> = { 400: "invalid_request_error", 402: "card_error", 404: "invalid_request_error", 429: "rate_limit_error" }

const readBody = (request: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Array<Buffer> = []
    request.on("data", (chunk: Buffer) => chunks.push(chunk))
    request.on("end", () => resolve(Buffer.concat(chunks)))
    request.on("error", reject)
  })

const send = (response: ServerResponse, answer: ApiAnswer, replayed = false) => {
  response.writeHead(answer.status, {
    "content-type": "application/json",
    "request-id": stripeId("req_", 14),
    ...(replayed ? { "idempotent-replayed": "true" } : {})
  })
  response.end(JSON.stringify(answer.body))
}

/**
 * A local stand-in for the Stripe API on 127.0.0.1: Checkout Sessions and refunds over real HTTP,
 * with Bearer auth, Stripe's error envelope and idempotency keys, plus plain methods for tests to
 * play the customer, Stripe's webhooks and Stripe's bad days.
 */
export const makeFakeStripe = (options: { readonly secretKey?: string } = {}) => {
  const secretKey = options.secretKey ?? FAKE_STRIPE_SECRET_KEY
  let base = ""
  const state: FakeStripeState = {
    livemode: /^(sk|rk)_live_/.test(secretKey),
    apiBase: () => base,
    sessions: new Map(),
    refunds: new Map(),
    transfers: new Map(),
    connectedAccounts: new Set(),
    available: new Map(),
    intentMetadata: new Map(),
    intentSetup: new Map(),
    paymentMethods: new Map(),
    intentMethods: new Map(),
    setupIntents: new Map(),
    nextRefundStatus: null
  }
  const disputeState: FakeDisputeState = { disputes: new Map(), files: new Map() }
  const idempotent = new Map<string, StoredAnswer>()
  /** The account's balance transactions, as settlement lists them. */
  const balance: Array<JsonObject> = []
  const requests: Array<RecordedRequest> = []
  let hanging = false
  let refundFailure: number | null = null
  let transferFailure: number | null = null

  const route = (method: string, path: string, params: URLSearchParams, key: string | null): ApiAnswer => {
    const sessionMatch = /^\/v1\/checkout\/sessions\/([^/]+)$/.exec(path)
    const refundMatch = /^\/v1\/refunds\/([^/]+)$/.exec(path)
    const intentMatch = /^\/v1\/payment_intents\/([^/]+)$/.exec(path)
    const disputeMatch = /^\/v1\/disputes\/([^/]+)$/.exec(path)
    const flat = new Map(params)
    if (method === "GET" && intentMatch !== null) return retrievePaymentIntent(state, decodeURIComponent(intentMatch[1]!), flat)
    if (method === "POST" && path === "/v1/payment_intents") return createOffSessionIntent(state, flat)
    if (method === "POST" && path === "/v1/checkout/sessions") return flat.get("mode") === "setup" ? createSetupSession(state, flat) : createSession(state, flat)
    const setupMatch = /^\/v1\/setup_intents\/([^/]+)$/.exec(path)
    if (method === "GET" && setupMatch !== null) return retrieveSetupIntent(state, decodeURIComponent(setupMatch[1]!), flat)
    if (method === "GET" && path === "/v1/checkout/sessions") return listPage([...state.sessions.values()], flat, path)
    if (method === "GET" && path === "/v1/balance_transactions") return listPage(balance, flat, path)
    if (method === "GET" && sessionMatch !== null) {
      const session = state.sessions.get(decodeURIComponent(sessionMatch[1]!))
      return session !== undefined ? { status: 200, body: session } : missing("checkout.session", sessionMatch[1]!, "session")
    }
    if (method === "POST" && path === "/v1/refunds") {
      if (refundFailure !== null) {
        const status = refundFailure
        refundFailure = null
        return { status, body: errorBody(ERROR_TYPES[status] ?? "api_error", `The fake failed this refund on purpose (HTTP ${status}).`) }
      }
      return createRefund(state, flat, key)
    }
    if (method === "POST" && disputeMatch !== null) return updateDispute(disputeState, decodeURIComponent(disputeMatch[1]!), flat)
    if (method === "POST" && path === "/v1/transfers") {
      if (transferFailure !== null) {
        const status = transferFailure
        transferFailure = null
        return { status, body: errorBody(ERROR_TYPES[status] ?? "api_error", `The fake failed this transfer on purpose (HTTP ${status}).`) }
      }
      return createTransfer(state, flat, key)
    }
    if (method === "GET" && refundMatch !== null) {
      const recorded = state.refunds.get(decodeURIComponent(refundMatch[1]!))
      return recorded !== undefined ? { status: 200, body: recorded.refund } : missing("refund", refundMatch[1]!, "id")
    }
    return { status: 404, body: errorBody("invalid_request_error", `Unrecognized request URL (${method}: ${path}).`) }
  }

  const handle = async (request: IncomingMessage, response: ServerResponse) => {
    const url = new URL(request.url ?? "/", "http://fake-stripe")
    const method = request.method ?? "GET"
    const raw = await readBody(request)
    const body = raw.toString("utf8")
    if (hanging) return
    if (method === "GET" && /^\/pay\/cs_/.test(url.pathname)) {
      response.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      return response.end("<!doctype html><title>Fake Stripe Checkout</title><p>Pay with the fake.</p>")
    }
    const contentType = request.headers["content-type"] ?? ""
    // A file upload is multipart: its fields are recorded as params, the file by its name.
    const form = contentType.startsWith("multipart/form-data") ? await new Response(raw, { headers: { "content-type": contentType } }).formData() : null
    const params = form !== null
      ? new URLSearchParams([...form.entries()].map(([name, value]): [string, string] => [name, typeof value === "string" ? value : value.name]))
      : new URLSearchParams(method === "GET" ? url.search : body)
    const key = request.headers["idempotency-key"] as string | undefined ?? null
    requests.push({
      method,
      path: url.pathname,
      params: Object.fromEntries(params),
      headers: { "idempotency-key": key ?? undefined, "stripe-version": request.headers["stripe-version"] as string | undefined, "x-stripe-client-telemetry": request.headers["x-stripe-client-telemetry"] as string | undefined, traceparent: request.headers["traceparent"] as string | undefined }
    })
    if (request.headers.authorization !== `Bearer ${secretKey}`) {
      const masked = `${secretKey.slice(0, 8)}****${secretKey.slice(-4)}`
      return send(response, { status: 401, body: errorBody("invalid_request_error", `Invalid API Key provided: ${masked}`) })
    }
    if (form !== null) {
      return send(response, method === "POST" && url.pathname === "/v1/files" ? await createFile(disputeState, form) : route(method, url.pathname, params, key))
    }
    if (method !== "POST" || key === null) return send(response, route(method, url.pathname, params, key))
    const fingerprint = `${method} ${url.pathname} ${body}`
    const stored = idempotent.get(key)
    if (stored !== undefined) {
      if (stored.request === fingerprint) return send(response, stored.answer, true)
      return send(response, {
        status: 400,
        body: errorBody("idempotency_error", `Keys for idempotent requests can only be used with the same parameters they were first used with. Try using a key other than '${key}' if you meant to execute a different request.`)
      })
    }
    const answer = route(method, url.pathname, params, key)
    // As at Stripe, an answer is kept for its key once the request has run; a fault before that is not.
    if (answer.status < 500 && answer.status !== 429) idempotent.set(key, { request: fingerprint, answer })
    return send(response, answer)
  }

  const server: Server = createServer((request, response) => {
    handle(request, response).catch(() => {
      if (!response.headersSent) send(response, { status: 500, body: errorBody("api_error", "The fake crashed.") })
    })
  })

  const sessionOf = (id: string): JsonObject => {
    const session = state.sessions.get(id)
    if (session === undefined) throw new Error(`the fake has no session ${id}`)
    return session
  }
  const move = (id: string, from: { status: string; payment_status?: string }, to: JsonObject) => {
    const session = sessionOf(id)
    if (session["status"] !== from.status || (from.payment_status !== undefined && session["payment_status"] !== from.payment_status)) {
      throw new Error(`session ${id} is ${String(session["status"])}/${String(session["payment_status"])}, not ${from.status}/${from.payment_status ?? "*"}`)
    }
    Object.assign(session, to)
  }

  return {
    start: (): Promise<void> =>
      new Promise((resolve) => server.listen(0, "127.0.0.1", () => {
        base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
        resolve()
      })),
    close: (): Promise<void> =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
    get apiBase() {
      return base
    },
    secretKey,
    /** The customer pays by card: complete and paid at once. */
    pay: (id: string) => move(id, { status: "open" }, { status: "complete", payment_status: "paid", payment_intent: stripeId("pi_"), url: null }),
    /**
     * The customer pays with a card that Stripe saves for off-session use (the session asked for a
     * customer and `setup_future_usage`): a Customer and a PaymentMethod of `behaviour` are made.
     */
    payAndSave: (id: string, behaviour: CardBehaviour = "succeeds", last4 = "4242") => {
      const session = sessionOf(id)
      if (session["customer_creation"] !== "always" || state.intentSetup.get(id) !== "off_session") {
        throw new Error(`session ${id} did not ask to save the customer's method`)
      }
      const customer = stripeId("cus_", 14)
      const paymentMethod = stripeId("pm_", 24)
      const intent = stripeId("pi_")
      state.paymentMethods.set(paymentMethod, {
        customer,
        behaviour,
        paymentMethod: { id: paymentMethod, object: "payment_method", type: "card", customer, card: { brand: "visa", last4, exp_month: 8, exp_year: 2031 } }
      })
      state.intentMethods.set(intent, paymentMethod)
      move(id, { status: "open" }, { status: "complete", payment_status: "paid", payment_intent: intent, customer, url: null })
      return { customer, paymentMethod }
    },
    /** The customer completes a `mode=setup` session with a card of `behaviour`, saved to the session's Customer. */
    completeSetup: (id: string, behaviour: CardBehaviour = "succeeds", last4 = "4242") => completeSetupSession(state, sessionOf(id), behaviour, last4),
    /** The customer picks a delayed method (a bank debit): complete, money not there yet. */
    payLater: (id: string) => move(id, { status: "open" }, { status: "complete", payment_status: "unpaid", payment_intent: stripeId("pi_"), url: null }),
    asyncSucceed: (id: string) => move(id, { status: "complete", payment_status: "unpaid" }, { payment_status: "paid" }),
    asyncFail: (id: string) => move(id, { status: "complete", payment_status: "unpaid" }, {}),
    expire: (id: string) => move(id, { status: "open" }, { status: "expired", url: null }),
    /**
     * A webhook delivery for the session as it stands now, signed as Stripe signs it. `session` fields
     * replace the session's own in the event only (a conformance driver describing an outcome the
     * session has not reached, or a different amount), never in the fake's state.
     */
    event: (
      type: string,
      id: string,
      signing: { readonly secret: string; readonly timestamp?: number; readonly session?: JsonObject }
    ): SignedDelivery => {
      const timestamp = signing.timestamp ?? nowSeconds()
      const payload = JSON.stringify(eventObject(type, { ...structuredClone(sessionOf(id)), ...signing.session }, timestamp), null, 2)
      return {
        rawBody: new TextEncoder().encode(payload),
        headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signStripePayload(payload, signing.secret, timestamp) }
      }
    },
    /**
     * A charge.dispute.* delivery on the PaymentIntent of a paid session, signed as Stripe signs it:
     * the dispute's id, amount (Stripe's minor units; the session's total by default), reason, status
     * and evidence deadline (unix seconds) as given.
     */
    disputeEvent: (
      type: string,
      sessionId: string,
      dispute: { readonly id: string; readonly status: string; readonly reason?: string; readonly amount?: number; readonly dueBy?: number; readonly livemode?: boolean },
      signing: { readonly secret: string; readonly timestamp?: number }
    ): SignedDelivery => {
      const session = sessionOf(sessionId)
      const timestamp = signing.timestamp ?? nowSeconds()
      const object = disputeObject({
        id: dispute.id,
        paymentIntent: session["payment_intent"] as string,
        amount: dispute.amount ?? (session["amount_total"] as number),
        currency: session["currency"] as string,
        livemode: dispute.livemode ?? state.livemode,
        reason: dispute.reason ?? "fraudulent",
        status: dispute.status,
        dueBy: dispute.dueBy ?? timestamp + 7 * 86_400
      })
      const payload = JSON.stringify(eventObject(type, object, timestamp), null, 2)
      return {
        rawBody: new TextEncoder().encode(payload),
        headers: { "content-type": "application/json; charset=utf-8", "stripe-signature": signStripePayload(payload, signing.secret, timestamp) }
      }
    },
    /**
     * A dispute Stripe opened on a paid session's charge, kept so evidence can be sent to it; the
     * object as Stripe's charge.dispute.created carries it (amount in minor units, the total by default).
     */
    openDispute: (sessionId: string, fields: { readonly id?: string; readonly amount?: number; readonly status?: string; readonly reason?: string } = {}): JsonObject => {
      const session = sessionOf(sessionId)
      const object = disputeObject({
        id: fields.id ?? stripeId("dp_"),
        paymentIntent: session["payment_intent"] as string,
        amount: fields.amount ?? (session["amount_total"] as number),
        currency: session["currency"] as string,
        livemode: state.livemode,
        reason: fields.reason ?? "fraudulent",
        status: fields.status ?? "needs_response",
        dueBy: nowSeconds() + 7 * 86_400
      })
      disputeState.disputes.set(object["id"] as string, object)
      return structuredClone(object)
    },
    dispute: (id: string): JsonObject | undefined => structuredClone(disputeState.disputes.get(id)),
    /** Closes a dispute as the network decided (no event sent; settlement and evidence see it). */
    closeDispute: (id: string, status: "won" | "lost") => {
      const dispute = disputeState.disputes.get(id)
      if (dispute === undefined) throw new Error(`the fake has no dispute ${id}`)
      dispute["status"] = status
    },
    uploadedFile: (id: string): UploadedFile | undefined => disputeState.files.get(id),
    /** Stripe withdrew a dispute's amount from the balance (its fee kept): reporting category dispute, source the dispute. */
    settleDispute: (id: string, fee: number): JsonObject => {
      const dispute = disputeState.disputes.get(id)!
      const transaction = balanceTransaction({ reportingCategory: "dispute", amount: -(dispute["amount"] as number), fee, currency: dispute["currency"] as string, source: structuredClone(dispute) })
      balance.push(transaction)
      return transaction
    },
    /** A won dispute's amount reinstated: reporting category dispute_reversal, source the dispute. */
    reinstateDispute: (id: string): JsonObject => {
      const dispute = disputeState.disputes.get(id)!
      const transaction = balanceTransaction({ reportingCategory: "dispute_reversal", amount: dispute["amount"] as number, currency: dispute["currency"] as string, source: structuredClone(dispute) })
      balance.push(transaction)
      return transaction
    },
    /** A Connect transfer left the platform's balance: reporting category transfer, source the transfer. */
    settleTransfer: (id: string): JsonObject => {
      const { transfer } = state.transfers.get(id)!
      const transaction = balanceTransaction({ reportingCategory: "transfer", amount: -(transfer["amount"] as number), currency: transfer["currency"] as string, source: structuredClone(transfer) })
      balance.push(transaction)
      return transaction
    },
    refundsFor: (paymentIntent: string): ReadonlyArray<RecordedRefund> =>
      [...state.refunds.values()].filter(({ refund }) => refund["payment_intent"] === paymentIntent),
    /** The next refund request is answered with this HTTP status in Stripe's error envelope, without running. */
    failNextRefund: (status: number) => {
      refundFailure = status
    },
    /** The next refund created gets this status (Stripe's test cards decide it there). */
    nextRefundStatus: (status: "succeeded" | "pending" | "requires_action" | "failed" | "canceled", failureReason: string | null = null) => {
      state.nextRefundStatus = { status, failureReason }
    },
    /** A connected account of the platform (Stripe Connect), which transfers may name. */
    connectAccount: (id: string) => {
      state.connectedAccounts.add(id)
    },
    /** Adds to the platform's available balance in a currency (minor units): what transfers draw on. */
    fund: (currency: string, minor: bigint) => {
      state.available.set(currency.toLowerCase(), (state.available.get(currency.toLowerCase()) ?? 0n) + minor)
    },
    available: (currency: string): bigint => state.available.get(currency.toLowerCase()) ?? 0n,
    transfers: (): ReadonlyArray<RecordedTransfer> => [...state.transfers.values()],
    /** The next transfer request is answered with this HTTP status in Stripe's error envelope, without running. */
    failNextTransfer: (status: number) => {
      transferFailure = status
    },
    /** While on, requests are read and never answered: a gateway that hangs. */
    hang: (on: boolean) => {
      hanging = on
    },
    /** Stripe settled a paid session's charge (its fee kept), now or at `created` (Unix seconds). */
    settleCharge: (sessionId: string, fee: number, created?: number): JsonObject => {
      const session = sessionOf(sessionId)
      const transaction = balanceTransaction({
        reportingCategory: "charge", amount: session["amount_total"] as number, fee, currency: session["currency"] as string, source: chargeOf(session),
        ...(created !== undefined ? { created } : {})
      })
      balance.push(transaction)
      return transaction
    },
    /** Stripe settled a refund: the money left the balance. */
    settleRefund: (refundId: string): JsonObject => {
      const { refund } = state.refunds.get(refundId)!
      const transaction = balanceTransaction({ reportingCategory: "refund", amount: -(refund["amount"] as number), currency: refund["currency"] as string, source: refund })
      balance.push(transaction)
      return transaction
    },
    /** Any other balance transaction (a payout, a conversion). */
    addBalanceTransaction: (fields: Parameters<typeof balanceTransaction>[0]): JsonObject => {
      const transaction = balanceTransaction(fields)
      balance.push(transaction)
      return transaction
    },
    sessions: (): ReadonlyArray<JsonObject> => [...state.sessions.values()].map((session) => structuredClone(session)),
    session: (id: string): JsonObject => structuredClone(sessionOf(id)),
    requests: (): ReadonlyArray<RecordedRequest> => [...requests]
  }
}

export type FakeStripe = ReturnType<typeof makeFakeStripe>

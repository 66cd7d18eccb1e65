import type {
  Environment,
  InitiatePaymentRequest,
  PaymentSession,
  Refund,
  RefundRequest,
  SimulatedOutcome,
  SiteInfo,
  Transaction
} from "./api-types.js"
import { DEFAULT_BACKOFF, type BackoffSettings } from "./retry-policy.js"
import { type CallOptions, type FetchFunction, makeTransport } from "./signed-transport.js"
import type {
  CancelSubscriptionRequest,
  CreateSubscriptionRequest,
  ListSubscriptionsQuery,
  RenewSubscriptionRequest,
  SubscriptionPage,
  SubscriptionResponse
} from "./subscription-types.js"
import { type MerchantWebhookCheck, verifyWithSecrets, type WebhookDelivery } from "./webhook-check.js"

export interface MerchantClientOptions {
  /** Where the API is served, with any base path: `https://pay.example` or `https://shop.example/payments`. */
  readonly baseUrl: string
  readonly merchantKey: string
  readonly apiKey: string
  /** Signs every request and verifies refund events; never sent. */
  readonly clientSecret: string
  /** Verifies payment and subscription events; needed only by `verifyWebhook`. */
  readonly webhookSecret?: string
  /** Must match the credentials: sandbox keys carry `test_`. */
  readonly environment: Environment
  /** Per attempt, waiting for the answer included. Default 15000. */
  readonly timeoutMs?: number
  /** Further attempts after the first, for answers and failures worth repeating. Default 3. */
  readonly retries?: number
  /** Default the global fetch (Node 20+). */
  readonly fetch?: FetchFunction
  /** Backoff between retries without Retry-After: base 250 ms, cap 10 s, full jitter. */
  readonly backoff?: Partial<BackoffSettings>
}

export type { CallOptions }

const segment = (name: string, value: string): string => {
  // "." and ".." would be resolved away by the URL parser and reach another endpoint.
  if (value === "" || value === "." || value === "..") throw new TypeError(`${name} must be a non-empty id.`)
  return encodeURIComponent(value)
}

const listQuery = (query: ListSubscriptionsQuery | undefined): string => {
  const params = new URLSearchParams()
  if (query?.page !== undefined) params.set("page", String(query.page))
  if (query?.per_page !== undefined) params.set("per_page", String(query.per_page))
  const text = params.toString()
  return text === "" ? "" : `?${text}`
}

const atLeast = (name: string, value: number, min: number): number => {
  if (!Number.isInteger(value) || value < min) throw new TypeError(`${name} must be a whole number of at least ${min}.`)
  return value
}

/**
 * A typed client for the merchant API of any running host, standalone or embedded under a base
 * path. Every call is signed (spec 5) and returns the response body as documented, amounts as exact
 * decimal strings; a refusal rejects with MerchantApiError, no answer at all with MerchantTransportError.
 * Every call returns a promise, and rejects (never throws) on bad input too.
 * POSTs carry an Idempotency-Key (random per call unless `options.idempotencyKey` is given), so
 * the retries on 429, 503, timeouts and network failures can never act twice.
 */
export const createMerchantClient = (options: MerchantClientOptions) => {
  const webhookSecret = options.webhookSecret
  const call = makeTransport({
    baseUrl: options.baseUrl,
    merchantKey: options.merchantKey,
    apiKey: options.apiKey,
    clientSecret: options.clientSecret,
    environment: options.environment,
    timeoutMs: atLeast("timeoutMs", options.timeoutMs ?? 15_000, 1),
    retries: atLeast("retries", options.retries ?? 3, 0),
    fetch: options.fetch ?? ((url, init) => fetch(url, init)),
    backoff: { ...DEFAULT_BACKOFF, ...options.backoff }
  })
  const subscription = (id: string) => `/api/v1/subscriptions/${segment("subscriptionId", id)}`

  return {
    environment: options.environment,

    initiatePayment: async (body: InitiatePaymentRequest, callOptions?: CallOptions) =>
      call<PaymentSession>({ method: "POST", path: "/api/v1/initiate-payment", body, options: callOptions }),

    verifyPayment: async (trxId: string, callOptions?: CallOptions) =>
      call<Transaction>({ method: "GET", path: `/api/v1/verify-payment/${segment("trxId", trxId)}`, options: callOptions }),

    refundPayment: async (body: RefundRequest, callOptions?: CallOptions) =>
      call<Refund>({ method: "POST", path: "/api/v1/refund-payment", body, options: callOptions }),

    siteInfo: async (callOptions?: CallOptions) => call<SiteInfo>({ method: "GET", path: "/api/v1/site-info", options: callOptions }),

    /** Sandbox only: ends a pending payment as its customer would have, without a browser. */
    simulatePayment: async (trxId: string, outcome: SimulatedOutcome, callOptions?: CallOptions) =>
      call<Transaction>({
        method: "POST",
        path: `/api/v1/sandbox/payments/${segment("trxId", trxId)}/simulate`,
        body: { outcome },
        options: callOptions
      }),

    createSubscription: async (body: CreateSubscriptionRequest, callOptions?: CallOptions) =>
      call<SubscriptionResponse>({ method: "POST", path: "/api/v1/subscriptions", body, options: callOptions }),

    listSubscriptions: async (query?: ListSubscriptionsQuery, callOptions?: CallOptions) =>
      call<SubscriptionPage>({ method: "GET", path: `/api/v1/subscriptions${listQuery(query)}`, options: callOptions }),

    getSubscription: async (id: string, callOptions?: CallOptions) =>
      call<SubscriptionResponse>({ method: "GET", path: subscription(id), options: callOptions }),

    cancelSubscription: async (id: string, body: CancelSubscriptionRequest = {}, callOptions?: CallOptions) =>
      call<SubscriptionResponse>({ method: "POST", path: `${subscription(id)}/cancel`, body, options: callOptions }),

    renewSubscription: async (id: string, body: RenewSubscriptionRequest = {}, callOptions?: CallOptions) =>
      call<SubscriptionResponse>({ method: "POST", path: `${subscription(id)}/renew`, body, options: callOptions }),

    /**
     * Checks a delivery to your `ipn_url` with this client's secrets: payment and subscription events
     * with the webhook secret, refund events with the client secret. Unless `expectedEnvironment` says
     * otherwise, only events of this client's environment are valid, so a sandbox event never passes
     * for a production one. Pass the body exactly as received, before parsing it.
     */
    verifyWebhook: (delivery: WebhookDelivery): MerchantWebhookCheck => {
      if (webhookSecret === undefined || webhookSecret === "") {
        throw new TypeError("createMerchantClient needs webhookSecret to verify webhooks.")
      }
      return verifyWithSecrets({ webhookSecret, clientSecret: options.clientSecret, defaultEnvironment: options.environment }, delivery)
    }
  }
}

export type MerchantClient = ReturnType<typeof createMerchantClient>

import type { Environment, InitiatePaymentRequest, OperationId, PathOf, QueryOf, RefundRequest, RequestOf, ResponseOf, SimulatedOutcome } from "./api-types.js"
import { OPERATIONS } from "./operations.js"
import { DEFAULT_BACKOFF, type BackoffSettings } from "./retry-policy.js"
import { type CallOptions, type FetchFunction, makeTransport } from "./signed-transport.js"
import type { ListEventsQuery, RecoverEventsRequest } from "./event-types.js"
import type { ListPaymentsQuery, ListRefundsQuery } from "./list-types.js"
import type { CancelSubscriptionRequest, CreateSubscriptionRequest, ListSubscriptionsQuery, RenewSubscriptionRequest } from "./subscription-types.js"
import { type MerchantWebhookCheck, verifyWithSecrets, type WebhookDelivery } from "./webhook-check.js"

/**
 * What one operation is called with: its path parameters, its body, a query where it reads one.
 * Parts an operation does not take are not asked for.
 */
export type OperationInput<Id extends OperationId> =
  & (keyof PathOf<Id> extends never ? { readonly path?: undefined } : { readonly path: PathOf<Id> })
  & ([RequestOf<Id>] extends [never] ? { readonly body?: undefined } : { readonly body: RequestOf<Id> })
  & ([QueryOf<Id>] extends [never] ? { readonly query?: undefined } : { readonly query?: QueryOf<Id> })

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

/** The operation's path with its parameters filled in and the query written. */
const pathOf = (template: string, parameters: Readonly<Record<string, string>> | undefined, query: Readonly<Record<string, string | number | undefined>> | undefined) => {
  const path = template.replace(/\{([^}]+)\}/g, (_, name: string) => segment(name, parameters?.[name] ?? ""))
  const search = new URLSearchParams()
  for (const [name, value] of Object.entries(query ?? {})) if (value !== undefined) search.set(name, String(value))
  const text = search.toString()
  return text === "" ? path : `${path}?${text}`
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
  /**
   * Calls any operation of the merchant API by its operationId (as the OpenAPI document names it),
   * typed from its declaration: a new endpoint is callable here without a release of the client's code.
   */
  const request = async <Id extends OperationId>(operationId: Id, input: OperationInput<Id>, callOptions?: CallOptions) => {
    // A caller in plain JavaScript can name anything: say so, rather than fail deep inside.
    if (!Object.hasOwn(OPERATIONS, operationId)) throw new TypeError(`${String(operationId)} is not an operation of the merchant API.`)
    const operation = OPERATIONS[operationId]
    return call<ResponseOf<Id>>({
      method: operation.method,
      path: pathOf(operation.path, input.path as Readonly<Record<string, string>> | undefined, input.query),
      ...(input.body !== undefined ? { body: input.body } : {}),
      options: callOptions
    })
  }

  return {
    environment: options.environment,
    request,

    initiatePayment: async (body: InitiatePaymentRequest, callOptions?: CallOptions) => request("initiatePayment", { body }, callOptions),

    verifyPayment: async (trxId: string, callOptions?: CallOptions) => request("verifyPayment", { path: { trxId } }, callOptions),

    refundPayment: async (body: RefundRequest, callOptions?: CallOptions) => request("refundPayment", { body }, callOptions),

    siteInfo: async (callOptions?: CallOptions) => request("siteInfo", {}, callOptions),

    /** Sandbox only: ends a pending payment as its customer would have, without a browser. */
    simulatePayment: async (trxId: string, outcome: SimulatedOutcome, callOptions?: CallOptions) =>
      request("simulatePayment", { path: { trxId }, body: { outcome } }, callOptions),

    /** Your payments in this client's environment, newest first; follow `next_cursor` for the next page. */
    listPayments: async (query: ListPaymentsQuery = {}, callOptions?: CallOptions) =>
      request("listPayments", { query: { ...query } }, callOptions),

    /** Your refunds in this client's environment, newest first; follow `next_cursor` for the next page. */
    listRefunds: async (query: ListRefundsQuery = {}, callOptions?: CallOptions) =>
      request("listRefunds", { query: { ...query } }, callOptions),

    createSubscription: async (body: CreateSubscriptionRequest, callOptions?: CallOptions) => request("createSubscription", { body }, callOptions),

    listSubscriptions: async (query?: ListSubscriptionsQuery, callOptions?: CallOptions) =>
      request("listSubscriptions", { query: { page: query?.page, per_page: query?.per_page } }, callOptions),

    getSubscription: async (id: string, callOptions?: CallOptions) => request("retrieveSubscription", { path: { subscriptionId: id } }, callOptions),

    cancelSubscription: async (id: string, body: CancelSubscriptionRequest = {}, callOptions?: CallOptions) =>
      request("cancelSubscription", { path: { subscriptionId: id }, body }, callOptions),

    renewSubscription: async (id: string, body: RenewSubscriptionRequest = {}, callOptions?: CallOptions) =>
      request("renewSubscription", { path: { subscriptionId: id }, body }, callOptions),

    /** Adds a bank account your payouts may go to; the answer shows its IBAN masked. */
    createPayoutDestination: async (body: RequestOf<"createPayoutDestination">, callOptions?: CallOptions) =>
      request("createPayoutDestination", { body }, callOptions),

    listPayoutDestinations: async (callOptions?: CallOptions) => request("listPayoutDestinations", {}, callOptions),

    deletePayoutDestination: async (id: string, callOptions?: CallOptions) =>
      request("deletePayoutDestination", { path: { destinationId: id } }, callOptions),

    /** Your events in this client's environment, newest first; follow `next_cursor` for the next page. */
    listEvents: async (query: ListEventsQuery = {}, callOptions?: CallOptions) =>
      request("listEvents", { query: { ...query } }, callOptions),

    /** One event with every attempt to deliver it. */
    getEvent: async (id: string, callOptions?: CallOptions) => request("retrieveEvent", { path: { eventId: id } }, callOptions),

    /** Sends one event again, with its own event id (`webhook-id`). */
    redeliverEvent: async (id: string, callOptions?: CallOptions) => request("redeliverEvent", { path: { eventId: id } }, callOptions),

    /** Queues again every event that failed in [since, until): each once, each with its own event id. */
    recoverEvents: async (body: RecoverEventsRequest, callOptions?: CallOptions) => request("recoverEvents", { body }, callOptions),

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

import { expect } from "vitest"
import { expectOk } from "./assertions.js"
import { sleep, type MerchantCaller } from "./fixtures.js"
import { CANCEL_URL, SUCCESS_URL, uniqueRef } from "./payment-fixtures.js"
import { adminRequest, type HttpResult, type Target } from "./signing.js"

/** Subscriptions (spec 2.5, 2.6, 3.2, 4.5-4.10) through the HTTP API only. */

export const SUBSCRIPTIONS = "/api/v1/subscriptions"
export const subscriptionPath = (id: string): string => `${SUBSCRIPTIONS}/${encodeURIComponent(id)}`

/**
 * An ipn_url the host accepts without DNS: HTTPS to a public IPv4 literal (spec 4.5: HTTPS, public
 * address). Nothing listens for the suite there; deliveries to it simply fail in the background.
 */
export const PUBLIC_IPN_URL = "https://93.184.215.14/ipn"

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/

/** Every field of the subscription resource (2.5 and what docs/decisions.md adds), sorted. */
export const SUBSCRIPTION_KEYS = [
  "allow_payment_methods", "amount", "billing_cycle", "cancel_at_period_end", "cancel_redirect", "cancelled_at", "created_at",
  "currency_code", "current_period_end", "current_period_start", "customer_email", "customer_name", "description", "environment",
  "external_reference", "id", "ipn_url", "latest_invoice", "metadata", "next_billing_at", "starts_at", "status", "success_redirect",
  "updated_at"
]

/** Every field of an invoice (2.6 and its own facts), sorted. */
export const INVOICE_KEYS = [
  "amount", "checkout_expires_at", "created_at", "currency_code", "id", "number", "paid_at", "payment_url", "period_end", "period_start",
  "reference", "sequence", "status", "trx_id"
]

export const INVALID_STATE = { status: 409, errorCode: "INVALID_STATE", fields: ["status"] } as const
export const SUBSCRIPTION_NOT_FOUND = { status: 404, errorCode: "NOT_FOUND" } as const

/** A valid create body (JSON text); `fields` override or add, an undefined value removes the field. */
export const subscriptionBody = (fields: Readonly<Record<string, unknown>> = {}): string =>
  JSON.stringify(Object.fromEntries(Object.entries({
    external_reference: uniqueRef("sub"),
    billing_cycle: "monthly",
    payment_amount: 19.99,
    currency_code: "USD",
    customer_email: "payer@shop.example",
    success_redirect: SUCCESS_URL,
    cancel_redirect: CANCEL_URL,
    ipn_url: PUBLIC_IPN_URL,
    ...fields
  }).filter(([, value]) => value !== undefined)))

export const createSubscription = (
  caller: MerchantCaller,
  fields: Readonly<Record<string, unknown>> = {},
  headers: Readonly<Record<string, string>> = {}
): Promise<HttpResult> => caller.call({ method: "POST", path: SUBSCRIPTIONS, body: subscriptionBody(fields), headers })

/** A subscription that must be created: the `data` of the 201. */
export const subscribe = async (caller: MerchantCaller, fields: Readonly<Record<string, unknown>> = {}): Promise<any> =>
  expectOk(await createSubscription(caller, fields), 201).data

export const retrieve = (caller: MerchantCaller, id: string): Promise<HttpResult> => caller.call({ path: subscriptionPath(id) })

/** The subscription as retrieve answers it now: the `data`. */
export const current = async (caller: MerchantCaller, id: string): Promise<any> => expectOk(await retrieve(caller, id)).data

export const cancel = (caller: MerchantCaller, id: string, body: Readonly<Record<string, unknown>> = {}): Promise<HttpResult> =>
  caller.call({ method: "POST", path: `${subscriptionPath(id)}/cancel`, body: JSON.stringify(body) })

export const renew = (caller: MerchantCaller, id: string, body: Readonly<Record<string, unknown>> = {}): Promise<HttpResult> =>
  caller.call({ method: "POST", path: `${subscriptionPath(id)}/renew`, body: JSON.stringify(body) })

/** Milliseconds of an ISO 8601 text (the microseconds dropped). */
export const millisOf = (iso: string): number => Date.parse(iso)

/** `2030-01-31T09:00:00.000Z` as the API writes it: six fraction digits. */
export const isoMicros = (millis: number): string => new Date(millis).toISOString().replace(/Z$/, "000Z")

/** Whether business time on this host moves only through the admin clock (CLOCK=manual). */
export const hasManualClock = async (target: Target): Promise<boolean> => (await adminRequest(target, "GET", "/clock")).status === 200

/** The host's business time in milliseconds: its manual clock, or this machine's clock on a real-time host. */
export const businessNow = async (target: Target): Promise<number> => {
  const response = await adminRequest(target, "GET", "/clock")
  return response.status === 200 ? millisOf(expectOk(response).now) : Date.now()
}

/** Moves the manual clock forward (it never goes back); answers the new business time in milliseconds. */
export const advance = async (target: Target, seconds: number): Promise<number> =>
  millisOf(expectOk(await adminRequest(target, "POST", "/clock/advance", { seconds })).now)

/** Moves the manual clock to one second past `iso` (the least that makes that moment due). */
export const advancePast = async (target: Target, iso: string): Promise<number> =>
  advance(target, Math.max(1, Math.ceil((millisOf(iso) - (await businessNow(target))) / 1000) + 1))

/**
 * Runs the scheduler (POST /admin/v1/scheduler/run) until `done` holds. Other cases share the host,
 * its own minute loop may run a tick at the same moment (then the run answers 409 and is retried),
 * and its batch size is not this suite's business: it runs again while a run still finds work.
 */
export const runSchedulerUntil = async (target: Target, done: () => Promise<boolean>): Promise<void> => {
  for (let attempt = 0; attempt < 50; attempt++) {
    const response = await adminRequest(target, "POST", "/scheduler/run")
    if (response.status === 409) {
      await sleep(200)
      continue
    }
    const report = expectOk(response).data
    expect(Object.keys(report).sort()).toEqual(["cancelled", "failed", "past_due", "processed", "started", "unchanged"])
    if (await done()) return
    if (report.processed === 0) break
  }
  throw new Error("the scheduler ran out of work before the subscription moved")
}

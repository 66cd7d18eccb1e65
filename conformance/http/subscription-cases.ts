import { describe, expect, it } from "vitest"
import { expectError, expectInvalidCredentials, expectOk, ISO_MICROS } from "./assertions.js"
import { expectHtml, getPage } from "./checkout-html.js"
import { CANCEL_URL, createShop, SUCCESS_URL, uniqueRef, verify } from "./payment-fixtures.js"
import { sleep } from "./fixtures.js"
import { nowSeconds, sign, type Target, targetPath } from "./signing.js"
import {
  advance, createSubscription, current, hasManualClock, INVOICE_KEYS, millisOf, PUBLIC_IPN_URL, retrieve, subscribe, SUBSCRIPTION_KEYS, SUBSCRIPTION_NOT_FOUND,
  SUBSCRIPTIONS, subscriptionBody, subscriptionPath, UUID
} from "./subscription-fixtures.js"

const DUPLICATE = { status: 409, errorCode: "DUPLICATE_REFERENCE", fields: ["external_reference"] } as const
const WEEK_MILLIS = 7 * 24 * 3600 * 1000

/** Spec 4.5 and 4.7: create, its idempotency and reference rules, the production default, retrieve's scope. */
export const subscriptionCases = (target: () => Target) =>
  describe("subscriptions: create and retrieve", () => {
    it("creates one: 201 {data} with every field, amount with 8 digits, ISO dates, and a pending first invoice with a working checkout", async () => {
      const shop = await createShop(target())
      const reference = uniqueRef("sub")
      const response = await createSubscription(shop.sandbox, {
        external_reference: reference,
        billing_cycle: "weekly",
        payment_amount: 19.99,
        customer_name: "Ada Payer",
        description: "Gold plan",
        metadata: { plan: "gold", seats: 3, tags: ["a", "b"] }
      })
      const body = expectOk(response, 201)
      expect(Object.keys(body)).toEqual(["data"])
      const data = body.data
      expect(Object.keys(data).sort()).toEqual(SUBSCRIPTION_KEYS)
      expect(data).toMatchObject({
        external_reference: reference,
        environment: "sandbox",
        status: "pending",
        billing_cycle: "weekly",
        amount: "19.99000000",
        currency_code: "USD",
        customer_email: "payer@shop.example",
        customer_name: "Ada Payer",
        description: "Gold plan",
        metadata: { plan: "gold", seats: 3, tags: ["a", "b"] },
        allow_payment_methods: [],
        success_redirect: SUCCESS_URL,
        cancel_redirect: CANCEL_URL,
        ipn_url: PUBLIC_IPN_URL,
        current_period_start: null,
        current_period_end: null,
        // A first invoice waits for its payment, not for the scheduler.
        next_billing_at: null,
        cancel_at_period_end: false,
        cancelled_at: null
      })
      expect(data.id).toMatch(UUID)
      for (const field of ["starts_at", "created_at", "updated_at"]) expect(data[field], field).toMatch(ISO_MICROS)
      // An immediate start anchors billing at the moment of creation.
      expect(data.starts_at).toBe(data.created_at)

      const invoice = data.latest_invoice
      expect(Object.keys(invoice).sort()).toEqual(INVOICE_KEYS)
      expect(invoice).toMatchObject({ sequence: 1, status: "pending", amount: "19.99000000", currency_code: "USD", paid_at: null })
      // The document number (docs/decisions.md): added after the contract's fields, never in their place.
      expect(invoice.number).toMatch(/^INV-\d{4}-\d{6,}$/)
      expect(Object.keys(invoice).at(-1)).toBe("number")
      expect(invoice.id).toMatch(UUID)
      expect(invoice.trx_id).toMatch(/^SANDBOX_[0-9A-Z]{26}$/)
      expect(typeof invoice.reference === "string" && invoice.reference.length > 0).toBe(true)
      expect(invoice.payment_url).toMatch(/^https?:\/\/[^/]+(\/.*)?\/checkout\/[^/]+$/)
      for (const field of ["checkout_expires_at", "period_start", "period_end", "created_at"]) expect(invoice[field], field).toMatch(ISO_MICROS)
      expect(millisOf(invoice.checkout_expires_at)).toBeGreaterThan(millisOf(data.created_at))
      expect(invoice.period_start).toBe(data.starts_at)
      expect(millisOf(invoice.period_end) - millisOf(invoice.period_start)).toBe(WEEK_MILLIS)

      // The invoice is a hosted checkout like any other, for the subscription's customer and amount.
      expect(expectOk(await verify(shop.sandbox, invoice.trx_id))).toMatchObject({
        status: "pending",
        trx_id: invoice.trx_id,
        amount: 19.99,
        currency: "USD",
        customer: { name: "Ada Payer", email: "payer@shop.example" },
        description: "Gold plan"
      })
      expectHtml(await getPage(target(), invoice.payment_url), 200)

      // Retrieve shows the same resource with its invoices, newest first.
      const retrieved = expectOk(await retrieve(shop.sandbox, data.id))
      expect(Object.keys(retrieved)).toEqual(["data"])
      expect(retrieved.data).toEqual({ ...data, invoices: [invoice] })
    })

    it("accepts a numeric string amount and the 1.00 minimum, each written with 8 fraction digits", async () => {
      const shop = await createShop(target(), { currencies: ["USD", "JPY"] })
      expect((await subscribe(shop.sandbox, { payment_amount: "1" })).amount).toBe("1.00000000")
      expect((await subscribe(shop.sandbox, { payment_amount: "250.5" })).amount).toBe("250.50000000")
      const yen = await subscribe(shop.sandbox, { payment_amount: 1200, currency_code: "JPY" })
      expect(yen).toMatchObject({ amount: "1200.00000000", currency_code: "JPY", latest_invoice: { amount: "1200.00000000", currency_code: "JPY" } })
    })

    it("without X-Environment works in production (spec 4.5 default): production keys, records and transaction ids", async () => {
      const shop = await createShop(target(), { wallets: ["USD:production"], production: true })
      const response = await shop.production.call({ method: "POST", path: SUBSCRIPTIONS, body: subscriptionBody(), environment: undefined })
      const data = expectOk(response, 201).data
      expect(data.environment).toBe("production")
      expect(data.latest_invoice.trx_id).toMatch(/^PRODUCTION_[0-9A-Z]{26}$/)
      expect(expectOk(await shop.production.call({ path: subscriptionPath(data.id), environment: undefined })).data.id).toBe(data.id)
      const listed = expectOk(await shop.production.call({ path: SUBSCRIPTIONS, environment: undefined }))
      expect(listed.data.map((item: { id: string }) => item.id)).toEqual([data.id])
      // Sandbox keys do not fit the production default.
      expectInvalidCredentials(await shop.sandbox.call({ method: "POST", path: SUBSCRIPTIONS, body: subscriptionBody(), environment: undefined }))
    })

    it("refuses a duplicate external_reference with 409 DUPLICATE_REFERENCE in its merchant and environment only", async () => {
      const shop = await createShop(target(), { wallets: ["USD", "USD:production"], production: true })
      const other = await createShop(target())
      const reference = uniqueRef("dup")
      const first = await subscribe(shop.sandbox, { external_reference: reference })
      expectError(await createSubscription(shop.sandbox, { external_reference: reference }), DUPLICATE)
      expectError(await createSubscription(shop.sandbox, { external_reference: reference, billing_cycle: "daily", payment_amount: 5 }), DUPLICATE)
      const listed = expectOk(await shop.sandbox.call({ path: SUBSCRIPTIONS }))
      expect(listed.data.map((item: { id: string }) => item.id)).toEqual([first.id])
      expect(listed.meta.total).toBe(1)
      // The same reference in the other environment, or for another merchant, is another subscription.
      const production = await subscribe(shop.production, { external_reference: reference })
      const elsewhere = await subscribe(other.sandbox, { external_reference: reference })
      expect(new Set([first.id, production.id, elsewhere.id]).size).toBe(3)
    })

    it("replays an identical create under the same Idempotency-Key (201, Idempotent-Replayed: true, same bytes) and creates once", async () => {
      const shop = await createShop(target())
      const key = `key-${uniqueRef()}`
      const body = subscriptionBody()
      const first = await shop.sandbox.call({ method: "POST", path: SUBSCRIPTIONS, body, headers: { "idempotency-key": key } })
      expectOk(first, 201)
      expect(first.headers["idempotent-replayed"]).toBeUndefined()
      const again = await shop.sandbox.call({ method: "POST", path: SUBSCRIPTIONS, body, headers: { "idempotency-key": key } })
      expect(again.status).toBe(201)
      expect(again.headers["idempotent-replayed"]).toBe("true")
      expect(again.text).toBe(first.text)

      // The key with other parameters is refused and creates nothing.
      const changed = subscriptionBody({ payment_amount: 29.99 })
      expectError(await shop.sandbox.call({ method: "POST", path: SUBSCRIPTIONS, body: changed, headers: { "idempotency-key": key } }), {
        status: 409,
        errorCode: "IDEMPOTENCY_CONFLICT"
      })
      const listed = expectOk(await shop.sandbox.call({ path: SUBSCRIPTIONS }))
      expect(listed.meta.total).toBe(1)
      expect(listed.data[0].id).toBe(first.json().data.id)
      // Without a key, the identical body is a second request: its reference is now taken.
      expectError(await shop.sandbox.call({ method: "POST", path: SUBSCRIPTIONS, body }), DUPLICATE)
    })

    it("takes an Idempotency-Key of up to 255 characters and refuses 256 with 422 naming the header, creating nothing", async () => {
      const shop = await createShop(target())
      const long = await shop.sandbox.call({ method: "POST", path: SUBSCRIPTIONS, body: subscriptionBody(), headers: { "idempotency-key": "k".repeat(256) } })
      expectError(long, { status: 422, fields: ["Idempotency-Key"] })
      expect(expectOk(await shop.sandbox.call({ path: SUBSCRIPTIONS })).meta.total).toBe(0)
      const longest = await shop.sandbox.call({ method: "POST", path: SUBSCRIPTIONS, body: subscriptionBody(), headers: { "idempotency-key": "k".repeat(255) } })
      expectOk(longest, 201)
    })

    it("retrieves only in its own merchant and environment: 404 for another merchant, the other environment and an unknown id", async () => {
      const shop = await createShop(target(), { wallets: ["USD", "USD:production"], production: true })
      const other = await createShop(target())
      const sandbox = await subscribe(shop.sandbox)
      const production = await subscribe(shop.production)
      expect((await current(shop.sandbox, sandbox.id)).id).toBe(sandbox.id)
      expect((await current(shop.production, production.id)).id).toBe(production.id)
      expectError(await retrieve(shop.production, sandbox.id), SUBSCRIPTION_NOT_FOUND)
      expectError(await retrieve(shop.sandbox, production.id), SUBSCRIPTION_NOT_FOUND)
      expectError(await retrieve(other.sandbox, sandbox.id), SUBSCRIPTION_NOT_FOUND)
      expectError(await retrieve(shop.sandbox, "00000000-0000-4000-8000-000000000000"), SUBSCRIPTION_NOT_FOUND)
      expectError(await retrieve(shop.sandbox, "not-a-subscription"), SUBSCRIPTION_NOT_FOUND)
      // Nor can another merchant act on it.
      for (const action of ["cancel", "renew"]) {
        expectError(await other.sandbox.call({ method: "POST", path: `${subscriptionPath(sandbox.id)}/${action}`, body: "{}" }), SUBSCRIPTION_NOT_FOUND)
      }
      expect((await current(shop.sandbox, sandbox.id)).status).toBe("pending")
    })
  })

/**
 * Spec 4.6: `{data, meta}` pages of the caller's own subscriptions, newest first. Business time
 * stands still on a CLOCK=manual host, so this moves it one second between creations (harmless to
 * other cases) to give each its own creation time; it runs after the cases that keep the clock still.
 */
export const subscriptionListCases = (target: () => Target) =>
  describe("subscriptions: list", () => {
    it("lists newest first, 20 a page by default, per_page 1 to 100, each item the full resource, only this merchant's environment", async () => {
      const shop = await createShop(target(), { wallets: ["USD", "USD:production"], production: true })
      const manual = await hasManualClock(target())
      const made: Array<string> = []
      for (let i = 0; i < 21; i++) {
        made.push((await subscribe(shop.sandbox)).id)
        if (manual) await advance(target(), 1)
        else await sleep(2)
      }
      const newestFirst = [...made].reverse()
      await subscribe(shop.production)
      await subscribe((await createShop(target())).sandbox)

      const page = async (query: string) => {
        const body = expectOk(await shop.sandbox.call({ path: `${SUBSCRIPTIONS}${query}` }))
        expect(Object.keys(body).sort()).toEqual(["data", "meta"])
        for (const item of body.data) expect(Object.keys(item).sort()).toEqual(SUBSCRIPTION_KEYS)
        return body as { data: Array<{ id: string; environment: string; latest_invoice: { sequence: number } }>; meta: unknown }
      }
      const first = await page("")
      expect(first.meta).toEqual({ current_page: 1, per_page: 20, total: 21, last_page: 2 })
      expect(first.data.map((item) => item.id)).toEqual(newestFirst.slice(0, 20))
      expect(first.data.every((item) => item.environment === "sandbox" && item.latest_invoice.sequence === 1)).toBe(true)
      // Each item is what retrieve shows, without the invoice list.
      const { invoices, ...newest } = await current(shop.sandbox, newestFirst[0]!)
      expect(invoices).toHaveLength(1)
      expect(first.data[0]).toEqual(newest)
      const second = await page("?page=2")
      expect(second.meta).toEqual({ current_page: 2, per_page: 20, total: 21, last_page: 2 })
      expect(second.data.map((item) => item.id)).toEqual([made[0]])
      const third = await page("?per_page=1&page=3")
      expect(third.meta).toEqual({ current_page: 3, per_page: 1, total: 21, last_page: 21 })
      expect(third.data.map((item) => item.id)).toEqual([newestFirst[2]])
      expect((await page("?per_page=100")).data.map((item) => item.id)).toEqual(newestFirst)
      expect((await page("?page=3")).data).toEqual([])

      for (const perPage of ["0", "101", "ten"]) {
        const refused = expectError(await shop.sandbox.call({ path: `${SUBSCRIPTIONS}?per_page=${perPage}` }), { status: 422, fields: ["per_page"] })
        expect(Object.keys(refused.errors)).toEqual(["per_page"])
      }
      // The query is part of what is signed: a signature over the bare path does not cover it.
      const timestamp = String(nowSeconds())
      const bare = sign({ secret: shop.sandbox.credentials.client_secret, timestamp, method: "GET", pathWithQuery: targetPath(target(), SUBSCRIPTIONS) })
      expectError(await shop.sandbox.call({ path: `${SUBSCRIPTIONS}?per_page=1`, timestamp, signature: bare }), { status: 401, errorCode: "INVALID_CREDENTIALS" })
    })
  })

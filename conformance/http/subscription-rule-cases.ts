import { describe, expect, it } from "vitest"
import { expectError, expectOk } from "./assertions.js"
import { expectHtml, getPage, offeredCodes } from "./checkout-html.js"
import { createShop, gatewayMaker, uniqueRef } from "./payment-fixtures.js"
import { adminRequest, type Target } from "./signing.js"
import { businessNow, createSubscription, isoMicros, SUBSCRIPTIONS, subscribe } from "./subscription-fixtures.js"

const NOT_ENABLED = { status: 422, errorCode: "INVALID_CURRENCY", message: "Currency is not enabled for this merchant." } as const
// The contract fixes the message only (spec 7.4).
const NO_WALLET = { status: 422, message: "Receiver wallet for this currency is not available." } as const

const REQUIRED = [
  "billing_cycle", "cancel_redirect", "currency_code", "customer_email", "external_reference", "ipn_url", "payment_amount", "success_redirect"
]

// 64 + 1 + 85 = 150 characters, a valid address; one more character in the domain makes 151.
const emailOf = (length: number): string => `${"a".repeat(64)}@${"b".repeat(63)}.${"c".repeat(length - 133)}.com`
const urlOf = (base: string, length: number): string => base + "p".repeat(length - base.length)
interface Row {
  readonly label: string
  readonly fields: Record<string, unknown>
  /** The error code when the contract's table names one (INVALID_AMOUNT for amounts). */
  readonly code?: string
}

const metadataOf = (entries: number): Record<string, number> => Object.fromEntries(Array.from({ length: entries }, (_, i) => [`k${i}`, i]))

/** Spec 4.5's field rules, 8's limits and 7.4's configuration refusals, each on its own field. */
export const subscriptionRuleCases = (target: () => Target) =>
  describe("subscriptions: create rules", () => {
    const makeGateway = gatewayMaker(target)

    it("names every missing required field at once", async () => {
      const shop = await createShop(target())
      const body = expectError(await shop.sandbox.call({ method: "POST", path: SUBSCRIPTIONS, body: "{}" }), { status: 422 })
      expect(Object.keys(body.errors).sort()).toEqual(REQUIRED)
      expect(body.errors.external_reference).toEqual(["The external reference field is required."])
    })

    it.each<Row>([
      { label: "external_reference over 100 characters", fields: { external_reference: "r".repeat(101) } },
      { label: "external_reference blank", fields: { external_reference: "   " } },
      { label: "external_reference a number", fields: { external_reference: 12345 } },
      { label: "billing_cycle unknown", fields: { billing_cycle: "quarterly" } },
      { label: "billing_cycle in the wrong case", fields: { billing_cycle: "Monthly" } },
      { label: "billing_cycle a number", fields: { billing_cycle: 30 } },
      { label: "payment_amount below 1", fields: { payment_amount: 0.99 }, code: "INVALID_AMOUNT" },
      { label: "payment_amount zero", fields: { payment_amount: 0 }, code: "INVALID_AMOUNT" },
      { label: "payment_amount negative", fields: { payment_amount: -5 }, code: "INVALID_AMOUNT" },
      { label: "payment_amount with more digits than USD has", fields: { payment_amount: 10.001 }, code: "INVALID_AMOUNT" },
      { label: "payment_amount a fraction of a yen", fields: { payment_amount: 10.5, currency_code: "JPY" }, code: "INVALID_AMOUNT" },
      { label: "payment_amount not a number", fields: { payment_amount: "ten" }, code: "INVALID_AMOUNT" },
      { label: "customer_email over 150 characters", fields: { customer_email: emailOf(151) } },
      { label: "customer_email without @", fields: { customer_email: "not-an-email" } },
      { label: "customer_email without a domain dot", fields: { customer_email: "payer@localhost" } },
      { label: "success_redirect over 255 characters", fields: { success_redirect: urlOf("https://shop.example/", 256) } },
      { label: "success_redirect relative", fields: { success_redirect: "/thanks" } },
      { label: "cancel_redirect over 255 characters", fields: { cancel_redirect: urlOf("https://shop.example/", 256) } },
      { label: "cancel_redirect without a scheme", fields: { cancel_redirect: "shop.example/cancel" } },
      { label: "ipn_url over 255 characters", fields: { ipn_url: urlOf("https://93.184.215.14/", 256) } },
      { label: "ipn_url relative", fields: { ipn_url: "/ipn" } },
      { label: "starts_at not a date", fields: { starts_at: "tomorrow" } },
      { label: "starts_at a date without a time", fields: { starts_at: "2099-01-31" } },
      { label: "starts_at without an offset", fields: { starts_at: "2099-01-31T09:00:00" } },
      { label: "starts_at a day that does not exist", fields: { starts_at: "2099-02-30T09:00:00Z" } },
      { label: "starts_at a number", fields: { starts_at: 4102444800 } },
      { label: "metadata an array", fields: { metadata: [1, 2] } },
      { label: "metadata a string", fields: { metadata: "plan=gold" } },
      { label: "metadata a number", fields: { metadata: 5 } },
      { label: "metadata with 51 entries", fields: { metadata: metadataOf(51) } },
      { label: "allow_payment_methods a number", fields: { allow_payment_methods: 5 } }
    ])("refuses $label with 422 naming that field alone, creating nothing", async ({ fields, code }) => {
      const shop = await createShop(target(), { currencies: ["USD", "JPY"] })
      const field = Object.keys(fields).find((name) => name !== "currency_code")!
      const body = expectError(await createSubscription(shop.sandbox, fields), { status: 422, fields: [field], ...(code === undefined ? {} : { errorCode: code }) })
      expect(Object.keys(body.errors)).toEqual([field])
      expect(expectOk(await shop.sandbox.call({ path: SUBSCRIPTIONS })).meta.total).toBe(0)
    })

    it("accepts every limit exactly: reference 100, email 150, URLs 255, metadata 50 entries, and echoes them", async () => {
      const shop = await createShop(target())
      const fields = {
        external_reference: `${uniqueRef("max")}-`.padEnd(100, "r"),
        customer_email: emailOf(150),
        success_redirect: urlOf("https://shop.example/", 255),
        cancel_redirect: urlOf("https://shop.example/c/", 255),
        ipn_url: urlOf("https://93.184.215.14/", 255),
        metadata: metadataOf(50)
      }
      expect(fields.external_reference).toHaveLength(100)
      expect(fields.customer_email).toHaveLength(150)
      expect(await subscribe(shop.sandbox, fields)).toMatchObject(fields)
    })

    it.for<readonly [string, boolean]>([
      ["https://localhost/ipn", true],
      ["https://127.0.0.1/ipn", true],
      ["https://10.0.0.1/ipn", true],
      ["https://169.254.169.254/latest", true],
      ["http://93.184.215.14/ipn", false],
      ["https://no-such-host.invalid/ipn", false]
    ])("refuses ipn_url %s with 422 on ipn_url (HTTPS to a public address only)", async ([url, privateTarget], context) => {
      if (privateTarget && target().allowsPrivateWebhookTargets === true) return context.skip("the host allows private webhook targets")
      const shop = await createShop(target())
      const body = expectError(await createSubscription(shop.sandbox, { ipn_url: url }), { status: 422, fields: ["ipn_url"] })
      expect(Object.keys(body.errors)).toEqual(["ipn_url"])
      expect(expectOk(await shop.sandbox.call({ path: SUBSCRIPTIONS })).meta.total).toBe(0)
    })

    it("tells an ipn_url's problem with the other fields' in one answer", async () => {
      const shop = await createShop(target())
      const body = expectError(await createSubscription(shop.sandbox, { ipn_url: "http://93.184.215.14/ipn", customer_email: "nope" }), {
        status: 422,
        fields: ["ipn_url", "customer_email"]
      })
      expect(Object.keys(body.errors).sort()).toEqual(["customer_email", "ipn_url"])
      expect(expectOk(await shop.sandbox.call({ path: SUBSCRIPTIONS })).meta.total).toBe(0)
    })

    it("refuses a starts_at in the past with 422 on starts_at", async () => {
      const shop = await createShop(target())
      const past = isoMicros((await businessNow(target())) - 60_000)
      expectError(await createSubscription(shop.sandbox, { starts_at: past }), { status: 422, fields: ["starts_at"] })
      expect(expectOk(await shop.sandbox.call({ path: SUBSCRIPTIONS })).meta.total).toBe(0)
    })

    it("refuses a currency not enabled for the merchant, and one without an active wallet, with the contract's 422 messages", async () => {
      const shop = await createShop(target(), { currencies: ["USD"], wallets: ["USD", "EUR"] })
      expectError(await createSubscription(shop.sandbox, { currency_code: "EUR" }), NOT_ENABLED)
      const bare = await createShop(target(), { currencies: ["USD"], wallets: [] })
      expectError(await createSubscription(bare.sandbox), NO_WALLET)
      const inactive = await createShop(target())
      const wallet = inactive.wallet("USD")
      expectOk(await adminRequest(target(), "PATCH", `/wallets/${wallet.id}`, { active: false }))
      expectError(await createSubscription(inactive.sandbox), NO_WALLET)
      // A sandbox subscription needs a sandbox wallet: a production one does not stand in.
      const productionOnly = await createShop(target(), { wallets: ["USD:production"] })
      expectError(await createSubscription(productionOnly.sandbox), NO_WALLET)
      for (const refused of [shop, bare, inactive, productionOnly]) {
        expect(expectOk(await refused.sandbox.call({ path: SUBSCRIPTIONS })).meta.total).toBe(0)
      }
    })

    it("takes allow_payment_methods among the eligible codes (array or comma list) and shows only those on the invoice's page", async () => {
      const shop = await createShop(target(), { currencies: ["USD", "EUR"] })
      const card = await makeGateway({ method: "subcard" })
      const bank = await makeGateway({ method: "subbank" })
      const euro = await makeGateway({ method: "subeuro", currency: "EUR" })
      const off = await makeGateway({ method: "suboff", active: false })
      const manual = await makeGateway({ method: "subman", type: "manual" })

      const one = await subscribe(shop.sandbox, { allow_payment_methods: [card.code] })
      expect(one.allow_payment_methods).toEqual([card.code])
      const page = expectHtml(await getPage(target(), one.latest_invoice.payment_url), 200)
      expect(offeredCodes(page)).toEqual([card.code])
      const both = await subscribe(shop.sandbox, { allow_payment_methods: `${card.code}, ${bank.code}` })
      expect([...both.allow_payment_methods].sort()).toEqual([bank.code, card.code].sort())

      for (const code of [euro.code, off.code, manual.code, "no-such-method"]) {
        const body = expectError(await createSubscription(shop.sandbox, { allow_payment_methods: [card.code, code] }), { status: 422, fields: ["allow_payment_methods"] })
        expect(body.errors.allow_payment_methods[0]).toContain(code)
      }
      expect(expectOk(await shop.sandbox.call({ path: SUBSCRIPTIONS })).meta.total).toBe(2)
    })
  })

import { describe, expect, it } from "vitest"
import { expectError } from "./assertions.js"
import { createMerchant, issueCredentials, callerFor, setMerchantStatus } from "./fixtures.js"
import { createShop, initiate, openWallet, paymentBody, setCurrencies, startSession } from "./payment-fixtures.js"
import { adminRequest, type Target } from "./signing.js"

const NOT_ENABLED = "Currency is not enabled for this merchant."
const NO_WALLET = "Receiver wallet for this currency is not available."

const notEnabled = { status: 422, errorCode: "INVALID_CURRENCY", message: NOT_ENABLED } as const
// The contract fixes the message only; which error_code goes with it is not shown (spec 7.2).
const noWallet = { status: 422, message: NO_WALLET } as const

const EMAIL_101 = `user@${"a".repeat(46)}.${"b".repeat(45)}.com`

/** Spec 4.1 field rules (each failing field named in `errors`) and its evaluation order, 7.4. */
export const initiateRulesCases = (target: () => Target) =>
  describe("initiate-payment: field rules and evaluation order", () => {
    it.each([
      ["below the 1.00 minimum", "USD", "0.99"],
      ["zero", "USD", "0"],
      ["negative", "USD", "-5"],
      ["more decimals than USD allows", "USD", "10.001"],
      ["a fraction of a yen", "JPY", "10.5"],
      ["above the largest amount", "USD", "10000000000"],
      ["more decimals than KWD allows", "KWD", "1.0001"],
      ["a string that is not a number", "USD", '"ten"'],
      ["a boolean", "USD", "true"],
      ["an object", "USD", '{"value":10}'],
      ["an array", "USD", "[10]"]
    ])("refuses payment_amount %s (%s %s) with 422 INVALID_AMOUNT on payment_amount", async (_, currency, amount) => {
      const shop = await createShop(target(), { currencies: [currency] })
      expectError(await initiate(shop.sandbox, paymentBody(amount, { currency_code: currency })), {
        status: 422,
        errorCode: "INVALID_AMOUNT",
        fields: ["payment_amount"]
      })
    })

    it.each(["usd", "Usd", "US", "U$D", " USD", "USD "])("refuses currency_code %j with 422 INVALID_CURRENCY on currency_code", async (code) => {
      const shop = await createShop(target())
      expectError(await initiate(shop.sandbox, paymentBody("10", { currency_code: code })), {
        status: 422,
        errorCode: "INVALID_CURRENCY",
        fields: ["currency_code"]
      })
    })

    it.each<readonly [string, Record<string, unknown>]>([
      ["ref_trx over 60 characters", { ref_trx: "r".repeat(61) }],
      ["ref_trx not a string", { ref_trx: 12345 }],
      ["customer_name over 100 characters", { customer_name: "n".repeat(101) }],
      ["customer_email over 100 characters", { customer_email: EMAIL_101 }],
      ["customer_email without @", { customer_email: "not-an-email" }],
      ["customer_email without a domain dot", { customer_email: "someone@localhost" }],
      ["customer_email with a space", { customer_email: "some one@shop.example" }],
      ["success_redirect relative", { success_redirect: "/checkout/success" }],
      ["success_redirect without a scheme", { success_redirect: "shop.example/success" }],
      ["cancel_redirect scheme-relative", { cancel_redirect: "//shop.example/cancel" }],
      ["cancel_redirect a bare word", { cancel_redirect: "cancel" }],
      ["ipn_url relative", { ipn_url: "hooks/payments" }],
      ["ipn_url without a host", { ipn_url: "https://" }],
      ["currency_code a number", { currency_code: 840 }],
      ["allow_payment_methods a number", { allow_payment_methods: 5 }],
      ["allow_payment_methods an array with a non-string", { allow_payment_methods: ["card", 1] }]
    ])("refuses %s with 422 naming the field", async (_, fields) => {
      const shop = await createShop(target())
      expectError(await initiate(shop.sandbox, paymentBody("10", fields)), { status: 422, fields: Object.keys(fields) })
    })

    it("reports every failing field at once", async () => {
      const shop = await createShop(target())
      const fields = { ref_trx: "r".repeat(61), customer_email: "nope", success_redirect: "/ok", cancel_redirect: "no", ipn_url: "/ipn" }
      expectError(await initiate(shop.sandbox, paymentBody("10", fields)), { status: 422, fields: Object.keys(fields) })
    })

    it("a currency not enabled for the merchant is 422 'Currency is not enabled', even with no wallet at all", async () => {
      const bare = await createShop(target(), { currencies: [], wallets: [] })
      expectError(await initiate(bare.sandbox, paymentBody("10")), notEnabled)
      // A wallet alone does not enable a currency: the merchant's list decides first.
      const walletOnly = await createShop(target(), { currencies: ["USD"], wallets: ["USD", "EUR"] })
      expectError(await initiate(walletOnly.sandbox, paymentBody("10", { currency_code: "EUR" })), notEnabled)
      // A well-formed code nobody supports is not enabled either.
      expectError(await initiate(walletOnly.sandbox, paymentBody("10", { currency_code: "XYZ" })), notEnabled)
    })

    it("an enabled currency with no wallet, an inactive one, or one in the other environment is 422 'Receiver wallet ... not available'", async () => {
      const noWalletShop = await createShop(target(), { currencies: ["USD"], wallets: [] })
      expectError(await initiate(noWalletShop.sandbox, paymentBody("10")), noWallet)

      const inactive = await createShop(target(), { currencies: ["USD"] })
      const wallet = inactive.wallet("USD")
      expect((await adminRequest(target(), "PATCH", `/wallets/${wallet.id}`, { active: false })).status).toBe(200)
      expectError(await initiate(inactive.sandbox, paymentBody("10")), noWallet)
      expect((await adminRequest(target(), "PATCH", `/wallets/${wallet.id}`, { active: true })).status).toBe(200)
      await startSession(inactive.sandbox, "10")

      const productionOnly = await createShop(target(), { currencies: ["USD"], wallets: ["USD:production"] })
      expectError(await initiate(productionOnly.sandbox, paymentBody("10")), noWallet)
    })

    it("checks the currency before the wallet, and both before the currency's minor unit", async () => {
      const shop = await createShop(target(), { currencies: ["JPY"], wallets: [] })
      expectError(await initiate(shop.sandbox, paymentBody("10.5", { currency_code: "USD" })), notEnabled)
      expectError(await initiate(shop.sandbox, paymentBody("10.5", { currency_code: "JPY" })), noWallet)
      await openWallet(target(), shop.merchant.id, "JPY")
      expectError(await initiate(shop.sandbox, paymentBody("10.5", { currency_code: "JPY" })), { status: 422, errorCode: "INVALID_AMOUNT", fields: ["payment_amount"] })
      await setCurrencies(target(), shop.merchant.id, [])
      expectError(await initiate(shop.sandbox, paymentBody("10", { currency_code: "JPY" })), notEnabled)
    })

    it("checks the merchant's review status first: a pending merchant gets 403 in production, a suspended one everywhere", async () => {
      const merchant = await createMerchant(target(), { status: "pending" })
      await setCurrencies(target(), merchant.id, ["USD"])
      await openWallet(target(), merchant.id, "USD", "production")
      const production = callerFor(target(), merchant, await issueCredentials(target(), merchant.id, "production"))
      const sandbox = callerFor(target(), merchant, await issueCredentials(target(), merchant.id, "sandbox"))
      expectError(await initiate(production, paymentBody("10")), { status: 403, errorCode: "MERCHANT_NOT_APPROVED", message: "Merchant Pending Approval" })
      // Sandbox works for a pending merchant; this one has no sandbox wallet, which is the next rule.
      expectError(await initiate(sandbox, paymentBody("10")), noWallet)
      await setMerchantStatus(target(), merchant.id, "suspended")
      expectError(await initiate(sandbox, paymentBody("10")), { status: 403, errorCode: "MERCHANT_SUSPENDED" })
    })
  })

import { HttpApp } from "@effect/platform"
import { DOMParser } from "@xmldom/xmldom"
import { Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { makeStripeCheckoutPlugin } from "../../adapters/gateways/stripe-checkout/index.js"
import { type FakeStripe, makeFakeStripe } from "../../adapters/gateways/stripe-checkout/testing/fake-stripe.js"
import { PLATFORM_PAYOUTS_PAID, payoutsInTransitAccount, walletAccount } from "../../core/ledger/account.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { signedRequest } from "../../testing/http/signed-client.js"
import { bankAccount, kitCalls, type PayoutShop, payoutShop } from "./payout-suite.js"
import { testKitConfig } from "./test-kit-config.js"

const IBAN = "DE89370400440532013000"
const CONNECTED = "acct_1PayoutRailSuite0001"
const PAIN = "urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"

/**
 * Payout rails over the whole HTTP app and a real store: the manual rail's day file (CSV and SEPA),
 * Stripe Connect transfers on approval against the local fake of Stripe, and a payout's entries.
 */
export const payoutRailSuite = (name: string, store: () => StoreConfig) =>
  describe(`payout rails over HTTP: ${name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let handler: (request: Request) => Promise<Response>
    let calls: ReturnType<typeof kitCalls>
    let shop: PayoutShop
    let other: PayoutShop
    let bank: string
    let connected: string
    const fake: FakeStripe = makeFakeStripe()
    const today = () => new Date().toISOString().slice(0, 10)

    beforeAll(async () => {
      await fake.start()
      fake.connectAccount(CONNECTED)
      fake.fund("EUR", 1_000_00n)
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store(), {
        settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 },
        plugins: [makeStripeCheckoutPlugin()]
      })))
      handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Logger.withMinimumLogLevel(LogLevel.Error)))
      calls = kitCalls(handler)
      shop = await runtime.runPromise(payoutShop("Rail shop", "1000.00"))
      other = await runtime.runPromise(payoutShop("Other rail shop", "5.00"))
      bank = (await calls.merchant(shop.caller, "POST", "/api/v1/payout-destinations", { ...bankAccount(), account_holder: "Rail Shop, \"Berlin\" GmbH", bic: "COBADEFFXXX" })).body.data.id
      const stripeAccount = await calls.merchant(shop.caller, "POST", "/api/v1/payout-destinations", { type: "stripe_account", account_id: CONNECTED, currency: "EUR" })
      expect(stripeAccount.status, stripeAccount.text).toBe(201)
      expect(stripeAccount.body.data).toEqual({ id: expect.stringMatching(/^pd_/), type: "stripe_account", account_id: CONNECTED, currency: "EUR", created_at: expect.any(String) })
      connected = stripeAccount.body.data.id
      const gateway = await calls.admin("POST", "/gateways", {
        plugin: "stripe-checkout", name: "Stripe", currency_code: "EUR", method: "stripe",
        config: { secret_key: fake.secretKey, webhook_secret: "whsec_payoutRailSuite000000000000", api_base: fake.apiBase }
      })
      expect(gateway.status, gateway.text).toBe(201)
    }, 60_000)
    afterAll(async () => {
      await runtime.dispose()
      await fake.close()
    })

    const ask = async (amount: string, destination: string) => {
      const asked = await calls.merchant(shop.caller, "POST", "/api/v1/payouts", { amount, currency: "EUR", destination_id: destination })
      expect(asked.status, asked.text).toBe(201)
      return asked.body.data.id as string
    }
    const balance = async () => (await calls.merchant(shop.caller, "GET", "/api/v1/balances")).body.data.find((each: any) => each.currency_code === "EUR").balance as number
    const download = async (query: string) => {
      const response = await handler(new Request(`http://kit.test/admin/v1/payouts/export?${query}`, { headers: { authorization: "Bearer admin-token" } }))
      return { status: response.status, type: response.headers.get("content-type"), disposition: response.headers.get("content-disposition"), text: await response.text() }
    }
    const trialBalanceSum = async () => (await calls.admin("GET", "/ledger/trial-balance?environment=sandbox&currency=EUR")).body.data.sum

    it("refuses destinations missing their type's fields, in the API's words", async () => {
      const bankless = await calls.merchant(shop.caller, "POST", "/api/v1/payout-destinations", { type: "bank_account", currency: "EUR" })
      expect([bankless.status, bankless.body.errors]).toEqual([422, { account_holder: ["The account holder field is required."], iban: ["The iban field is required."] }])
      const idless = await calls.merchant(shop.caller, "POST", "/api/v1/payout-destinations", { type: "stripe_account", currency: "EUR" })
      expect([idless.status, idless.body.errors]).toEqual([422, { account_id: ["The account id field is required."] }])
      const wrong = await calls.merchant(shop.caller, "POST", "/api/v1/payout-destinations", { type: "stripe_account", account_id: "cus_123", currency: "EUR" })
      expect([wrong.status, Object.keys(wrong.body.errors)]).toEqual([422, ["account_id"]])
    })

    it("approving a bank account's payout leaves it approved on the manual rail; the day's CSV lists it, exact and unsealed, and the download is audited", async () => {
      const tenths = [await ask("0.10", bank), await ask("0.20", bank)]
      for (const id of tenths) {
        const approved = await calls.admin("POST", `/payouts/${id}/approve`)
        expect([approved.status, approved.body.data.status, approved.body.data.reference]).toEqual([200, "approved", null])
        // The rail and the approval time, alike to the operator, the merchant and the admin list.
        expect(approved.body.data).toMatchObject({ rail: "manual", approved_at: approved.body.data.updated_at })
        const { merchant_id: _merchant, ...asMerchantSees } = approved.body.data
        expect((await calls.merchant(shop.caller, "GET", `/api/v1/payouts/${id}`)).body.data).toEqual(asMerchantSees)
        const listed = (await calls.admin("GET", "/payouts?status=approved&limit=100")).body.data as ReadonlyArray<any>
        expect(listed.find((each) => each.id === id)).toEqual(approved.body.data)
      }
      const csv = await download(`date=${today()}&environment=sandbox&currency=EUR`)
      expect([csv.status, csv.type]).toEqual([200, "text/csv; charset=utf-8"])
      expect(csv.disposition).toBe(`attachment; filename="payouts-${today()}-sandbox-eur.csv"`)
      const lines = csv.text.split("\r\n")
      expect(lines[0]).toBe("payout_id,amount,currency,account_holder,iban,bic,reference")
      expect(lines).toContain(`${tenths[0]},0.10,EUR,"Rail Shop, ""Berlin"" GmbH",${IBAN},COBADEFFXXX,${tenths[0]}`)
      expect(lines).toContain(`${tenths[1]},0.20,EUR,"Rail Shop, ""Berlin"" GmbH",${IBAN},COBADEFFXXX,${tenths[1]}`)
      // Another day, another book: not listed.
      expect((await download("date=2000-01-01&environment=sandbox&currency=EUR")).text).toBe("payout_id,amount,currency,account_holder,iban,bic,reference\r\n")
      expect((await download(`date=${today()}&environment=production&currency=EUR`)).text.split("\r\n")).toHaveLength(2)
      const audit = await calls.admin("GET", "/audit?limit=100")
      expect((audit.body.data as ReadonlyArray<any>).some((entry) => entry.operation === "exportPayouts" && entry.method === "GET" && entry.status === 200)).toBe(true)
      // Marked paid, a payout leaves the file: downloaded again, it is not paid twice.
      await calls.admin("POST", `/payouts/${tenths[0]}/mark-paid`, { reference: "SEPA-1" })
      expect((await download(`date=${today()}&environment=sandbox&currency=EUR`)).text).not.toContain(tenths[0])
    })

    it("writes the day's SEPA credit transfer from the platform's account, with the exact control sum, once the account is set", async () => {
      const missing = await download(`date=${today()}&environment=sandbox&currency=EUR&format=sepa`)
      expect([missing.status, JSON.parse(missing.text).error_code]).toEqual([409, "INVALID_STATE"])
      const set = await calls.admin("PUT", "/payouts/bank-account", { name: "Rail Platform GmbH", iban: "DE02 1203 0000 0000 2020 51", bic: "BYLADEM1001" })
      expect([set.status, set.body.data]).toEqual([200, { name: "Rail Platform GmbH", iban: "DE02120300000000202051", bic: "BYLADEM1001" }])
      expect((await calls.admin("GET", "/payouts/bank-account")).body.data.iban).toBe("DE02120300000000202051")
      const big = await ask("99.99", bank)
      await calls.admin("POST", `/payouts/${big}/approve`)
      const listed = (await download(`date=${today()}&environment=sandbox&currency=EUR`)).text.trim().split("\r\n").slice(1)
      const exact = listed.reduce((sum, line) => sum + BigInt(line.split(",")[1]!.replace(".", "")), 0n)
      const sepa = await download(`date=${today()}&environment=sandbox&currency=EUR&format=sepa`)
      expect([sepa.status, sepa.type]).toEqual([200, "application/xml; charset=utf-8"])
      const doc = new DOMParser().parseFromString(sepa.text, "application/xml")
      const texts = (tag: string) => Array.from(doc.getElementsByTagNameNS(PAIN, tag), (node: any) => node.textContent as string)
      expect(texts("NbOfTxs")).toEqual([String(listed.length), String(listed.length)])
      const total = `${exact / 100n}.${(exact % 100n).toString().padStart(2, "0")}`
      expect(texts("CtrlSum")).toEqual([total, total])
      expect(texts("EndToEndId")).toContain(big)
      expect(texts("IBAN")[0]).toBe("DE02120300000000202051")
      const dollars = await download(`date=${today()}&environment=sandbox&currency=USD&format=sepa`)
      expect([dollars.status, JSON.parse(dollars.text).error_code]).toEqual([422, "INVALID_CURRENCY"])
      const badDate = await download("date=2026-02-30&environment=sandbox&currency=EUR")
      expect([badDate.status, Object.keys(JSON.parse(badDate.text).errors)]).toEqual([422, ["date"]])
    })

    it("approving a Stripe account's payout transfers it at once: paid with the transfer's id, out of the books, trial balance zero", async () => {
      const before = await balance()
      const id = await ask("12.34", connected)
      const approved = await calls.admin("POST", `/payouts/${id}/approve`)
      expect([approved.status, approved.body.data.status]).toEqual([200, "paid"])
      expect(approved.body.data).toMatchObject({ rail: "stripe-checkout", approved_at: expect.stringMatching(/Z$/) })
      const [transfer] = fake.transfers().filter(({ idempotencyKey }) => idempotencyKey === id)
      expect(approved.body.data.reference).toBe(transfer!.transfer["id"])
      expect(transfer!.transfer).toMatchObject({ amount: 1234, currency: "eur", destination: CONNECTED })
      expect(await balance()).toBeCloseTo(before - 12.34, 8)
      expect(await trialBalanceSum()).toBe(0)
      const entries = await calls.merchant(shop.caller, "GET", `/api/v1/payouts/${id}/entries`)
      expect(entries.status).toBe(200)
      expect(entries.body.data.map((entry: any) => [entry.kind, entry.currency, entry.environment])).toEqual([
        ["payout_requested", "EUR", "sandbox"],
        ["payout_paid", "EUR", "sandbox"]
      ])
      expect(entries.body.data[0].lines).toEqual([
        { account: payoutsInTransitAccount(shop.merchant.id), amount: -12.34 },
        { account: walletAccount(shop.merchant.id), amount: 12.34 }
      ])
      expect(entries.body.data[1].lines).toEqual([
        { account: payoutsInTransitAccount(shop.merchant.id), amount: 12.34 },
        { account: PLATFORM_PAYOUTS_PAID, amount: -12.34 }
      ])
    })

    it("a transfer Stripe refuses fails the payout with Stripe's reason and returns the funds, once", async () => {
      const before = await balance()
      const gone = await calls.merchant(shop.caller, "POST", "/api/v1/payout-destinations", { type: "stripe_account", account_id: "acct_notConnectedAnymore", currency: "EUR" })
      const id = await ask("40.00", gone.body.data.id)
      expect(await balance()).toBeCloseTo(before - 40, 8)
      const approved = await calls.admin("POST", `/payouts/${id}/approve`)
      expect([approved.status, approved.body.data.status]).toEqual([200, "failed"])
      expect(approved.body.data.reason).toBe("Stripe refused the transfer: No such destination: 'acct_notConnectedAnymore'")
      expect(await balance()).toBeCloseTo(before, 8)
      expect(await trialBalanceSum()).toBe(0)
      const entries = await calls.merchant(shop.caller, "GET", `/api/v1/payouts/${id}/entries`)
      expect(entries.body.data.map((entry: any) => entry.kind)).toEqual(["payout_requested", "payout_returned"])
      expect((await calls.admin("POST", `/payouts/${id}/mark-failed`, { reason: "again" })).status).toBe(409)
    })

    it("a Stripe that cannot be reached leaves the payout approved for the operator, and the money where it was", async () => {
      const id = await ask("1.00", connected)
      fake.failNextTransfer(500)
      const approved = await calls.admin("POST", `/payouts/${id}/approve`)
      expect([approved.status, approved.body.data.status]).toEqual([200, "approved"])
      expect(fake.transfers().filter(({ idempotencyKey }) => idempotencyKey === id)).toEqual([])
      expect((await calls.admin("POST", `/payouts/${id}/mark-failed`, { reason: "Stripe was down" })).body.data.status).toBe("failed")
      expect(await trialBalanceSum()).toBe(0)
    })

    it("answers a payout's entries as CSV by ?format=csv or Accept, and not at all for another merchant", async () => {
      const id = await ask("0.30", bank)
      const raw = async (path: string, headers: Record<string, string> = {}) => {
        const response = await handler(signedRequest(shop.caller, "GET", path, "", headers))
        return { status: response.status, type: response.headers.get("content-type"), text: await response.text() }
      }
      const byQuery = await raw(`/api/v1/payouts/${id}/entries?format=csv`)
      const byAccept = await raw(`/api/v1/payouts/${id}/entries`, { accept: "text/csv" })
      expect([byQuery.status, byQuery.type]).toEqual([200, "text/csv; charset=utf-8"])
      expect(byAccept.text).toBe(byQuery.text)
      const lines = byQuery.text.split("\r\n")
      expect(lines[0]).toBe("entry_id,created_at,kind,account,amount,currency,reference")
      expect(lines.slice(1, 3).map((line) => line.split(",").slice(2))).toEqual([
        ["payout_requested", payoutsInTransitAccount(shop.merchant.id), "-0.30", "EUR", id],
        ["payout_requested", walletAccount(shop.merchant.id), "0.30", "EUR", id]
      ])
      expect(lines[3]).toBe("")
      expect((await calls.merchant(other.caller, "GET", `/api/v1/payouts/${id}/entries`)).status).toBe(404)
      expect((await raw(`/api/v1/payouts/po_00000000000000000000000000000000/entries`)).status).toBe(404)
    })
  })

import { HttpApp } from "@effect/platform"
import { Effect, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { disputeHoldAccount, walletAccount } from "../../core/ledger/account.js"
import type { Merchant } from "../../core/merchants/merchant.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { createWallet } from "../../core/wallets/wallet-admin.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import type { TestCaller } from "../../testing/http/signed-client.js"
import { kitCalls } from "./payout-suite.js"
import { testKitConfig } from "./test-kit-config.js"

/**
 * Issue 35's disputes through the whole HTTP app over a real store: a sandbox payment completed, a
 * dispute opened by the operator, answered by the merchant (signed), closed won or lost; the wallet
 * moved by exactly the amount and the fee, possibly below zero, and every book summing to zero.
 */
export const disputeSuite = (name: string, store: () => StoreConfig) =>
  describe(`disputes over HTTP: ${name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let calls: ReturnType<typeof kitCalls>
    let merchant: Merchant
    let caller: TestCaller
    let orders = 0

    beforeAll(async () => {
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store(), { settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 } })))
      const handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Logger.withMinimumLogLevel(LogLevel.Error)))
      calls = kitCalls(handler)
      const setUp = await runtime.runPromise(Effect.gen(function*() {
        const created = yield* createMerchant({ name: "Disputed shop", status: "approved" })
        yield* replaceCurrencies(created.id, ["EUR"])
        const credentials = yield* issueCredentials(created.id, "sandbox")
        yield* createWallet(created.id, "EUR", "sandbox")
        const who: TestCaller = { environment: "sandbox", merchantKey: credentials.merchantKey, apiKey: credentials.apiKey, clientSecret: credentials.clientSecret }
        return { merchant: created, caller: who }
      }) as Effect.Effect<{ merchant: Merchant; caller: TestCaller }, unknown, never>)
      merchant = setUp.merchant
      caller = setUp.caller
      const gateway = await calls.admin("POST", "/gateways", { plugin: "sandbox", name: "Test card", currency_code: "EUR", method: `dispute${merchant.id}` })
      expect(gateway.status, gateway.text).toBe(201)
      const fee = await calls.admin("PATCH", `/merchants/${merchant.id}`, { dispute_fee: "15" })
      expect([fee.status, fee.body.dispute_fee], fee.text).toEqual([200, 15])
    })
    afterAll(() => runtime.dispose())

    const balance = async () => {
      const answer = await calls.merchant(caller, "GET", "/api/v1/balances")
      return answer.body.data.find((each: any) => each.currency_code === "EUR").balance as number
    }
    const trialBalance = async () => {
      const answer = await calls.admin("GET", "/ledger/trial-balance?environment=sandbox&currency=EUR")
      expect(answer.status, answer.text).toBe(200)
      return { sum: answer.body.data.sum as number, accounts: new Map<string, number>(answer.body.data.accounts.map((each: any) => [each.account, each.balance])) }
    }
    const pay = async (amount: number) => {
      const started = await calls.merchant(caller, "POST", "/api/v1/initiate-payment", {
        payment_amount: amount, currency_code: "EUR", ref_trx: `dispute-order-${++orders}`,
        success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/no", ipn_url: "https://shop.example/ipn"
      })
      expect(started.status, started.text).toBe(200)
      const trxId = started.body.info.trx_id as string
      const paid = await calls.merchant(caller, "POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })
      expect(paid.status, paid.text).toBe(200)
      return trxId
    }
    const open = (trxId: string, body: object) => calls.admin("POST", `/sandbox/payments/${trxId}/dispute`, body)

    it("opened, answered with evidence and won: the wallet is back where it was less the fee, and the books sum to zero", async () => {
      const trxId = await pay(100)
      const before = await balance()
      const opened = await open(trxId, { reason: "fraudulent" })
      expect(opened.status, opened.text).toBe(201)
      const dispute = opened.body.data
      expect(dispute).toMatchObject({ status: "needs_response", trx_id: trxId, amount: 100, fee: 15, currency: "EUR", reason: "fraudulent", environment: "sandbox", evidence: null, merchant_id: merchant.id })
      expect(Date.parse(dispute.evidence_due_by) - Date.parse(dispute.created_at)).toBe(7 * 86_400_000)
      expect(await balance()).toBe(before - 115)
      expect((await trialBalance()).accounts.get(disputeHoldAccount(merchant.id))).toBe(-100)

      const listed = await calls.merchant(caller, "GET", "/api/v1/disputes?status=needs_response")
      expect(listed.status, listed.text).toBe(200)
      expect(listed.body.data.map((each: any) => each.id)).toContain(dispute.id)
      const { merchant_id: _merchant, ...merchantView } = dispute
      expect((await calls.merchant(caller, "GET", `/api/v1/disputes/${dispute.id}`)).body.data).toEqual(merchantView)

      const files = [{ name: "delivery receipt.pdf", content_base64: Buffer.from("%PDF-1.4 signed for").toString("base64") }]
      const answered = await calls.merchant(caller, "POST", `/api/v1/disputes/${dispute.id}/evidence`, { text: "Delivered and signed for.", files }, { "idempotency-key": `evidence-${dispute.id}` })
      expect(answered.status, answered.text).toBe(200)
      expect(answered.body.data).toMatchObject({ status: "under_review", evidence: { text: "Delivered and signed for.", files: [{ name: "delivery receipt.pdf", size: 19 }] } })
      const replayed = await calls.merchant(caller, "POST", `/api/v1/disputes/${dispute.id}/evidence`, { text: "Delivered and signed for.", files }, { "idempotency-key": `evidence-${dispute.id}` })
      expect([replayed.status, replayed.replayed]).toEqual([200, "true"])
      const again = await calls.merchant(caller, "POST", `/api/v1/disputes/${dispute.id}/evidence`, { text: "More." })
      expect([again.status, again.body.error_code, again.body.message]).toEqual([409, "INVALID_STATE", "This dispute is under_review; evidence is taken only while it needs a response."])

      const closed = await calls.admin("POST", `/sandbox/disputes/${dispute.id}/close`, { outcome: "won" })
      expect(closed.status, closed.text).toBe(200)
      expect(closed.body.data.status).toBe("won")
      expect(await balance()).toBe(before - 15)
      const books = await trialBalance()
      expect(books.sum).toBe(0)
      expect(books.accounts.get(disputeHoldAccount(merchant.id))).toBe(0)
      expect(books.accounts.get(walletAccount(merchant.id))).toBe(-(before - 15))
      const twice = await calls.admin("POST", `/sandbox/disputes/${dispute.id}/close`, { outcome: "lost" })
      expect([twice.status, twice.body.error_code]).toEqual([409, "INVALID_STATE"])
      const audit = await calls.admin("GET", "/audit?limit=5")
      expect(audit.body.data.map((entry: any) => [entry.operation, entry.path_params.id ?? entry.path_params.trx_id, entry.status])).toEqual(expect.arrayContaining([
        ["closeSandboxDispute", dispute.id, 409], ["closeSandboxDispute", dispute.id, 200], ["openSandboxDispute", trxId, 201]
      ]))
    })

    it("lost, beyond what the wallet holds: the balance goes below zero, shows so, refunds and payouts are refused, and a later payment pays the debt back", async () => {
      const trxId = await pay(40)
      const payout = await calls.merchant(caller, "POST", "/api/v1/payout-destinations", { type: "bank_account", account_holder: "Disputed shop", iban: "DE89370400440532013000", currency: "EUR" })
      expect(payout.status, payout.text).toBe(201)
      // Take the wallet down to nothing first, so the dispute has only debt to make.
      const everything = await balance()
      const out = await calls.merchant(caller, "POST", "/api/v1/payouts", { amount: everything, currency: "EUR", destination_id: payout.body.data.id })
      expect(out.status, out.text).toBe(201)
      expect(await balance()).toBe(0)

      const tooMuch = await open(trxId, { amount: 40.01, reason: "product_not_received" })
      expect([tooMuch.status, tooMuch.body.error_code, tooMuch.body.errors], tooMuch.text).toEqual([422, "INVALID_AMOUNT", { amount: ["The dispute amount exceeds what is left of the payment: 40.00 EUR."] }])
      const opened = await open(trxId, { amount: 30, reason: "product_not_received" })
      expect(opened.status, opened.text).toBe(201)
      expect(await balance()).toBe(-45)
      const statement = await calls.merchant(caller, "GET", "/api/v1/balances")
      expect(statement.text).toContain('"balance":-45')
      // A balance in debt has nothing available: what can leave is never below zero.
      expect(statement.text).toContain('"available":0,')
      const noPayout = await calls.merchant(caller, "POST", "/api/v1/payouts", { amount: 1, currency: "EUR", destination_id: payout.body.data.id })
      expect([noPayout.status, noPayout.body.errors], noPayout.text).toEqual([422, { available_balance: ["The available balance is 0.00 EUR."] }])

      const refund = await calls.merchant(caller, "POST", "/api/v1/refund-payment", { trx_id: trxId, amount: 10.01 })
      expect([refund.status, refund.body.message, refund.body.errors], refund.text).toEqual([422, "Refund amount exceeds the refundable balance", {
        remaining_refund: ["The refundable balance is 10.00 EUR: 30.00 EUR of this payment is held by disputes."]
      }])
      const insufficient = await calls.merchant(caller, "POST", "/api/v1/refund-payment", { trx_id: trxId, amount: 5 })
      expect([insufficient.status, insufficient.body.error_code], insufficient.text).toEqual([422, "INSUFFICIENT_BALANCE"])
      const second = await open(trxId, { amount: 10.01, reason: "duplicate" })
      expect(second.status, second.text).toBe(422)

      const closed = await calls.admin("POST", `/sandbox/disputes/${opened.body.data.id}/close`, { outcome: "lost" })
      expect(closed.body.data.status, closed.text).toBe("lost")
      expect(await balance()).toBe(-45)
      await pay(100)
      expect(await balance()).toBe(55)
      const books = await trialBalance()
      expect(books.sum).toBe(0)
      expect(books.accounts.get(disputeHoldAccount(merchant.id))).toBe(0)
      const lost = await calls.admin("GET", "/disputes?status=lost")
      expect(lost.body.data.map((each: any) => each.id)).toContain(opened.body.data.id)
    })

    it("refuses what it cannot do with clear answers", async () => {
      const trxId = await pay(20)
      expect((await open("SANDBOX_NOPE", { reason: "fraudulent" })).status).toBe(404)
      const noReason = await open(trxId, {})
      expect([noReason.status, noReason.body.errors]).toEqual([422, { reason: ["The reason field is required."] }])
      const opened = await open(trxId, { reason: "fraudulent" })
      const id = opened.body.data.id
      const empty = await calls.merchant(caller, "POST", `/api/v1/disputes/${id}/evidence`, { text: "ok", files: [{ name: "../x", content_base64: "%%%" }] })
      expect([empty.status, Object.keys(empty.body.errors)]).toEqual([422, ["files.0"]])
      expect((await calls.merchant(caller, "GET", "/api/v1/disputes/dp_00000000000000000000000000000000")).status).toBe(404)
      const outcome = await calls.admin("POST", `/sandbox/disputes/${id}/close`, { outcome: "draw" })
      expect(outcome.status).toBe(422)
    })
  })

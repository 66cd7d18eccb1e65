import { HttpApp } from "@effect/platform"
import { Effect, Logger, LogLevel, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { PLATFORM_PAYOUTS_PAID, payoutsInTransitAccount, walletAccount } from "../../core/ledger/account.js"
import type { Merchant } from "../../core/merchants/merchant.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { walletStatement } from "../../core/wallets/statement.js"
import { adjustWallet, createWallet } from "../../core/wallets/wallet-admin.js"
import type { Wallet } from "../../core/wallets/wallet.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { signedRequest, type TestCaller } from "../../testing/http/signed-client.js"
import { testKitConfig } from "./test-kit-config.js"

const PATH = "/api/v1/payouts"

export interface PayoutShop {
  readonly merchant: Merchant
  readonly caller: TestCaller
  readonly wallet: Wallet
}

/** An approved merchant of EUR and USD with sandbox credentials and a sandbox EUR wallet holding `float` (an adjustment). */
export const payoutShop = (name: string, float: string) =>
  Effect.gen(function*() {
    const merchant = yield* createMerchant({ name, status: "approved" })
    yield* replaceCurrencies(merchant.id, ["EUR", "USD"])
    const credentials = yield* issueCredentials(merchant.id, "sandbox")
    const wallet = yield* createWallet(merchant.id, "EUR", "sandbox")
    yield* adjustWallet(wallet.id, { kind: "string", value: float }, "float")
    const caller: TestCaller = { environment: "sandbox", merchantKey: credentials.merchantKey, apiKey: credentials.apiKey, clientSecret: credentials.clientSecret }
    return { merchant, caller, wallet } satisfies PayoutShop
  })

/** One kit's HTTP app as a function of requests: signed merchant calls and admin calls. */
export const kitCalls = (handler: (request: Request) => Promise<Response>) => {
  const read = async (response: Response) => {
    const text = await response.text()
    return { status: response.status, text, body: JSON.parse(text) as any, replayed: response.headers.get("idempotent-replayed") }
  }
  return {
    merchant: async (who: TestCaller, method: string, path: string, body?: object, headers: Record<string, string> = {}) =>
      read(await handler(signedRequest(who, method, path, body === undefined ? "" : JSON.stringify(body), headers))),
    admin: async (method: string, path: string, body?: object) =>
      read(await handler(new Request(`http://kit.test/admin/v1${path}`, {
        method,
        headers: { authorization: "Bearer admin-token", ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })))
  }
}

export const bankAccount = (currency = "EUR") => ({ type: "bank_account", account_holder: "Payout Shop GmbH", iban: "DE89370400440532013000", currency })

/** Payouts through the whole HTTP app, signed as a merchant asks for them and driven by the admin API, over a real store. */
export const payoutSuite = (name: string, store: () => StoreConfig) =>
  describe(`payouts over HTTP: ${name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let calls: ReturnType<typeof kitCalls>
    let shop: PayoutShop
    let other: PayoutShop
    let destination: string
    const run = <A, E>(effect: Effect.Effect<A, E, any>): Promise<A> => runtime.runPromise(effect as Effect.Effect<A, E, never>)

    beforeAll(async () => {
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store(), { settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 } })))
      const handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Logger.withMinimumLogLevel(LogLevel.Warning)))
      calls = kitCalls(handler)
      shop = await run(payoutShop("Payout shop", "100.00"))
      other = await run(payoutShop("Other shop", "5.00"))
      const created = await calls.merchant(shop.caller, "POST", "/api/v1/payout-destinations", bankAccount())
      expect(created.status, created.text).toBe(201)
      destination = created.body.data.id
    })
    afterAll(() => runtime.dispose())

    const balance = async () => {
      const answer = await calls.merchant(shop.caller, "GET", "/api/v1/balances")
      return answer.body.data.find((each: any) => each.currency_code === "EUR")
    }
    const trialBalance = async () => {
      const answer = await calls.admin("GET", "/ledger/trial-balance?environment=sandbox&currency=EUR")
      expect(answer.status, answer.text).toBe(200)
      return { sum: answer.body.data.sum as number, accounts: new Map<string, number>(answer.body.data.accounts.map((each: any) => [each.account, each.balance])) }
    }
    const ask = (amount: string, headers: Record<string, string> = {}) =>
      calls.merchant(shop.caller, "POST", PATH, { amount, currency: "EUR", destination_id: destination }, headers)

    it("asks for a payout: 201 pending, the amount out of the wallet at once, listed newest first and read by id", async () => {
      const asked = await ask("30.25")
      expect(asked.status, asked.text).toBe(201)
      expect(asked.body.data).toEqual({
        id: expect.stringMatching(/^po_[0-9a-f]{32}$/),
        status: "pending",
        amount: 30.25,
        currency: "EUR",
        destination_id: destination,
        environment: "sandbox",
        reason: null,
        reference: null,
        rail: null,
        approved_at: null,
        created_at: expect.stringMatching(/Z$/),
        updated_at: asked.body.data.created_at
      })
      expect((await balance()).balance).toBe(69.75)
      const listed = await calls.merchant(shop.caller, "GET", PATH)
      expect(listed.body.data[0]).toEqual(asked.body.data)
      expect(listed.body.has_more).toBe(false)
      const read = await calls.merchant(shop.caller, "GET", `${PATH}/${asked.body.data.id}`)
      expect(read.body.data).toEqual(asked.body.data)
      // Another merchant's payout is not found, nor listed.
      expect((await calls.merchant(other.caller, "GET", `${PATH}/${asked.body.data.id}`)).status).toBe(404)
      expect((await calls.merchant(other.caller, "GET", PATH)).body.data).toEqual([])
      const pending = await calls.admin("GET", "/payouts?status=pending")
      expect(pending.body.data.map((each: any) => [each.id, each.merchant_id])).toContainEqual([asked.body.data.id, shop.merchant.id])
    })

    it("refuses more than the wallet holds: 422 naming the available balance, and nothing moves", async () => {
      const before = (await balance()).balance
      const refused = await ask("1000")
      expect(refused.status).toBe(422)
      expect(refused.body.message).toBe("Payout amount exceeds the available balance")
      expect(refused.body.error_code).toBe("INVALID_AMOUNT")
      expect(refused.body.errors.available_balance).toEqual([`The available balance is ${before.toFixed(2)} EUR.`])
      expect((await balance()).balance).toBe(before)
    })

    it("refuses a destination that is not the caller's, or of another currency, and a bad amount", async () => {
      const theirs = await calls.merchant(other.caller, "POST", PATH, { amount: "1", currency: "EUR", destination_id: destination })
      expect([theirs.status, Object.keys(theirs.body.errors)]).toEqual([422, ["destination_id"]])
      const dollars = await calls.merchant(shop.caller, "POST", PATH, { amount: "1", currency: "USD", destination_id: destination })
      expect([dollars.status, dollars.body.error_code, Object.keys(dollars.body.errors)]).toEqual([422, "INVALID_CURRENCY", ["currency"]])
      const zero = await ask("0")
      expect([zero.status, zero.body.error_code]).toEqual([422, "INVALID_AMOUNT"])
      const tooPrecise = await ask("1.001")
      expect([tooPrecise.status, tooPrecise.body.error_code]).toEqual([422, "INVALID_AMOUNT"])
    })

    it("answers a repeated Idempotency-Key with the same payout, moving the money once", async () => {
      const before = (await balance()).balance
      const first = await ask("1.00", { "idempotency-key": "payout-once" })
      const again = await ask("1.00", { "idempotency-key": "payout-once" })
      expect(first.status).toBe(201)
      expect(again.status).toBe(201)
      expect(again.body.data.id).toBe(first.body.data.id)
      expect(again.replayed).toBe("true")
      expect((await balance()).balance).toBe(before - 1)
    })

    it("approves and marks paid: the payout leaves the books for the bank, the trial balance stays zero", async () => {
      const paidBefore = (await trialBalance()).accounts.get(PLATFORM_PAYOUTS_PAID) ?? 0
      const asked = (await ask("10.00")).body.data
      expect((await calls.admin("POST", `/payouts/${asked.id}/mark-paid`, { reference: "BANK-1" })).status).toBe(409)
      const approved = await calls.admin("POST", `/payouts/${asked.id}/approve`)
      expect([approved.status, approved.body.data.status, approved.body.data.merchant_id]).toEqual([200, "approved", shop.merchant.id])
      const paid = await calls.admin("POST", `/payouts/${asked.id}/mark-paid`, { reference: "BANK-1" })
      expect([paid.status, paid.body.data.status, paid.body.data.reference]).toEqual([200, "paid", "BANK-1"])
      const again = await calls.admin("POST", `/payouts/${asked.id}/mark-paid`, { reference: "BANK-2" })
      expect([again.status, again.body.error_code, again.body.message]).toEqual([409, "INVALID_STATE", "This payout is paid; only an approved payout can be marked paid."])
      const { sum, accounts } = await trialBalance()
      expect(sum).toBe(0)
      expect(accounts.get(PLATFORM_PAYOUTS_PAID)).toBeCloseTo(paidBefore - 10, 8)
      expect(accounts.get(walletAccount(shop.merchant.id))).toBe(-(await balance()).balance)
      expect((await calls.merchant(shop.caller, "GET", `${PATH}/${asked.id}`)).body.data.status).toBe("paid")
    })

    it("rejects a pending payout and fails an approved one: each returns its amount to the wallet, once", async () => {
      const before = (await balance()).balance
      const rejected = (await ask("7.50")).body.data
      const failed = (await ask("2.50")).body.data
      expect((await balance()).balance).toBe(before - 10)
      const reject = await calls.admin("POST", `/payouts/${rejected.id}/reject`, { reason: "Not the merchant's account" })
      expect([reject.status, reject.body.data.status, reject.body.data.reason]).toEqual([200, "rejected", "Not the merchant's account"])
      expect((await calls.admin("POST", `/payouts/${rejected.id}/reject`, { reason: "again" })).status).toBe(409)
      expect((await calls.admin("POST", `/payouts/${rejected.id}/approve`)).status).toBe(409)
      expect((await calls.admin("POST", `/payouts/${failed.id}/mark-failed`, { reason: "early" })).status).toBe(409)
      await calls.admin("POST", `/payouts/${failed.id}/approve`)
      const fail = await calls.admin("POST", `/payouts/${failed.id}/mark-failed`, { reason: "Account closed" })
      expect([fail.status, fail.body.data.status]).toEqual([200, "failed"])
      expect((await balance()).balance).toBe(before)
      expect((await calls.admin("POST", "/payouts/po_00000000000000000000000000000000/approve")).status).toBe(404)
      const { sum } = await trialBalance()
      expect(sum).toBe(0)
    })

    it("shows each payout in the wallet's statement, and leaves nothing in transit once every payout has ended", async () => {
      const page = await run(walletStatement({ merchant: shop.merchant, environment: "sandbox" }, shop.wallet.id, { limit: 50 }))
      const payouts = page.entries.filter((entry) => entry.kind === "payout_debit" || entry.kind === "payout_return")
      expect(payouts.filter((entry) => entry.kind === "payout_return").map((entry) => entry.reference)).toHaveLength(2)
      for (const entry of payouts) expect(entry.reference).toMatch(/^po_[0-9a-f]{32}$/)
      const listed = (await calls.merchant(shop.caller, "GET", `${PATH}?limit=100`)).body.data as ReadonlyArray<any>
      const stillOut = listed.filter((each) => each.status === "pending" || each.status === "approved").reduce((sum, each) => sum + each.amount, 0)
      const { sum, accounts } = await trialBalance()
      expect(sum).toBe(0)
      expect(-(accounts.get(payoutsInTransitAccount(shop.merchant.id)) ?? 0)).toBeCloseTo(stillOut, 8)
      // Every payout debit is the request of a payout listed, by its id.
      const ids = new Set(listed.map((each) => each.id))
      for (const entry of payouts) expect(ids.has(entry.reference)).toBe(true)
    })

    it("the audit log holds each operator's change", async () => {
      const audit = await calls.admin("GET", "/audit?limit=100")
      const operations = new Set((audit.body.data as ReadonlyArray<any>).map((entry) => entry.operation))
      for (const operation of ["approvePayout", "rejectPayout", "markPayoutPaid", "markPayoutFailed"]) expect(operations.has(operation), operation).toBe(true)
    })
  })

// The Balances page over HTTP on the real kit, beside the API it mirrors: a production payment
// pending for the environment's two-day delay with the date it becomes available, a rolling reserve
// held, the payout delay and reserve in effect, and the Payouts page offering only what is available.
import { Effect, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { requireMerchant } from "../../../../core/merchants/merchant-admin.js"
import { finishPayment } from "../../../../core/payments/finish-payment.js"
import { initiatePayment } from "../../../../core/payments/initiate-payment.js"
import { MerchantId } from "../../../../core/shared/ids.js"
import { plusSeconds, toIsoString } from "../../../../core/shared/instant.js"
import { testKitConfig } from "../../../../end-to-end/suites/test-kit-config.js"
import type { IssuedCredentials } from "../../../../hosts/embedding/index.js"
import { kitLayer } from "../../../../hosts/kit-layer.js"
import { type PlatformDashboard, startPlatformDashboard, textOf } from "../../../../testing/http/platform-dashboard.js"

const DAY = 86_400

let dash: PlatformDashboard
/** A second host on the dashboard's store: the sandbox simulator takes no production payment, so production ones are paid here, as a gateway's return would. */
let payer: ManagedRuntime.ManagedRuntime<any, any>
let shop: { readonly id: number; readonly credentials: IssuedCredentials }
let production: IssuedCredentials
const owner = () => ({ merchant: shop.id })
const viewer = () => ({ merchant: shop.id, role: "viewer" as const })

let references = 0
/** A production payment of `amount` USD, completed now: its net credited to the production wallet. */
const payInProduction = (amount: string) =>
  payer.runPromise(Effect.gen(function*() {
    const merchant = yield* requireMerchant(MerchantId(shop.id))
    const session = yield* initiatePayment({ merchant, environment: "production" }, {
      amount: { kind: "string", value: amount }, currency: "USD", refTrx: `balances-page-${++references}`,
      successRedirect: "https://shop.example/ok", cancelRedirect: "https://shop.example/cancel", ipnUrl: "https://shop.example/ipn",
      description: null, customerName: null, customerEmail: null, keywords: []
    })
    return yield* finishPayment(session.payment.trxId, { outcome: "paid", gatewayId: null })
  }))

const apiBalance = async (credentials: IssuedCredentials) =>
  ((await dash.api(credentials, "GET", "/api/v1/balances")).json.data as ReadonlyArray<Record<string, any>>).find((wallet) => wallet["currency_code"] === "USD")!

/** The text of one figure's block on the page (its label, amount, date and explanation). */
const figureText = (page: string, id: string) => textOf(new RegExp(`<div id="${id}">(.*?)</div>`).exec(page)?.[1] ?? "")

beforeAll(async () => {
  dash = await startPlatformDashboard()
  shop = await dash.onboard("Balance Shop")
  await dash.payments.admin.wallets.create(shop.id, { currency_code: "USD", environment: "production" })
  production = await dash.payments.admin.credentials.issue(shop.id, "production")
  payer = ManagedRuntime.make(kitLayer(testKitConfig({ kind: "sqlite", filename: dash.databaseFile }, { masterKey: new Uint8Array(32).fill(0x22) })))
  await payer.runtime()
}, 60_000)
afterAll(async () => {
  await payer?.dispose()
  await dash?.close()
})

describe("dashboard balances page", () => {
  it("shows a sandbox balance available at once, with no delay and no reserve in effect", async () => {
    const wallet = (await dash.payments.admin.wallets.list(shop.id)).data.find((each) => each.environment === "sandbox")!
    await dash.payments.admin.wallets.adjust(wallet.id, { amount: "25.00", reason: "opening balance for the test" })
    const page = await dash.page("/dashboard/balances?environment=sandbox", viewer())
    expect(page.status).toBe(200)
    expect(figureText(page.text, "available-USD")).toContain("Available 25.00 USD")
    expect(figureText(page.text, "pending-USD")).toContain("Pending 0.00 USD Payments become available at once here")
    expect(page.text).not.toContain("becomes available on")
    const text = textOf(page.text)
    expect(text).toMatch(/Payout delay none: payments are payable at once \(the sandbox default\)/)
    expect(text).toContain("Rolling reserve none")
    expect(page.text).toContain('<a href="/dashboard/balances?environment=sandbox" aria-current="page">Balances</a>')
  })

  it("shows a production payment pending for the two-day delay with its date, and its reserve held, as the API does", async () => {
    expect((await dash.payments.admin.payoutSettings.replace(shop.id, { reserve_percent: "10", reserve_days: 7 })).data).toMatchObject({ payout_delay_days: null })
    const wallet = (await dash.payments.admin.wallets.list(shop.id)).data.find((each) => each.environment === "production")!
    await dash.payments.admin.wallets.adjust(wallet.id, { amount: "40.00", reason: "already payable" })
    const paid = await payInProduction("100.00")
    const api = await apiBalance(production)
    const due = toIsoString(plusSeconds(paid.completedAt!, 2 * DAY))
    expect(api).toMatchObject({ balance: 130, available: 40, pending: 90, reserved: 10, in_payouts: 0, next_available_at: due })

    const page = (await dash.page("/dashboard/balances?environment=production", owner())).text
    expect(textOf(/<p class="figure">(.*?)<\/p>/.exec(page)![1]!)).toBe("130.00 USD")
    expect(figureText(page, "available-USD")).toContain("Available 40.00 USD")
    expect(figureText(page, "pending-USD")).toContain(`Pending 90.00 USD becomes available on ${due.slice(0, 10)} ${due.slice(11, 16)} UTC`)
    expect(page).toContain(`<time datetime="${due}">`)
    expect(figureText(page, "pending-USD")).toContain("completed in the last 2 days")
    expect(figureText(page, "reserved-USD")).toContain("Reserved 10.00 USD The rolling reserve: 10 % of each payment's net, held 7 days")
    expect(figureText(page, "in-payouts-USD")).toContain("In payouts 0.00 USD")
    const text = textOf(page)
    expect(text).toContain("Payout delay 2 days after each payment (the production default)")
    expect(text).toContain("Rolling reserve 10 % of each payment's net, held 7 days")
    // The settings are the operator's: the merchant is offered no form to change them.
    expect(page).not.toContain('action="/dashboard/balances')
  })

  it("offers on the Payouts page only what is available, and refuses more in the API's words", async () => {
    await dash.api(production, "POST", "/api/v1/payout-destinations", {
      type: "bank_account", account_holder: "Balance Shop GmbH", iban: "DE89 3704 0044 0532 0130 00", currency: "USD"
    })
    const page = (await dash.page("/dashboard/payouts?environment=production", owner())).text
    expect(textOf(/<section class="card" aria-labelledby="balance-USD">.*?<p class="figure">(.*?)<\/p>/s.exec(page)![1]!)).toBe("40.00 USD")
    const form = {
      csrf_token: /name="csrf_token" value="([^"]+)"/.exec(page)![1]!,
      environment: "production",
      currency: "USD",
      idempotency_key: /name="idempotency_key" value="([^"]+)"/.exec(page)![1]!,
      destination_id: /<option value="(pd_[0-9a-f]+)"/.exec(page)![1]!,
      amount: "40.01"
    }
    const refused = await dash.post("/dashboard/payouts/request", form, owner())
    expect(refused.status).toBe(422)
    expect(refused.text).toContain('<p class="field-problem" id="payout-amount-USD-problem" role="alert">Payout amount exceeds the available balance. The available balance is 40.00 USD.</p>')
    const made = await dash.post("/dashboard/payouts/request", { ...form, amount: "15.00" }, owner())
    expect(made.status, made.text).toBe(303)
    const after = (await dash.page("/dashboard/balances?environment=production", owner())).text
    expect(figureText(after, "available-USD")).toContain("Available 25.00 USD")
    expect(figureText(after, "in-payouts-USD")).toContain("In payouts 15.00 USD")
    expect(figureText(after, "pending-USD")).toContain("Pending 90.00 USD")
  })

  it("keeps the environments apart", async () => {
    const sandbox = (await dash.page("/dashboard/balances?environment=sandbox", owner())).text
    expect(figureText(sandbox, "available-USD")).toContain("Available 25.00 USD")
    expect(figureText(sandbox, "reserved-USD")).toContain("Reserved 0.00 USD")
  })
})

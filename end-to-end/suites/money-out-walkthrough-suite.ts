import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server } from "node:http"
import { DOMParser } from "@xmldom/xmldom"
import { Webhook } from "standardwebhooks"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createMerchantClient, type MerchantClient } from "../../client/index.js"
import { createMerchantPayments, type MerchantPayments } from "../../hosts/embedding/index.js"
import { parseSamples, valueOf } from "../../adapters/metrics/testing/prometheus-samples.js"
import { formTokenOf } from "../../testing/http/platform-dashboard.js"
import { until } from "./until.js"

const ADMIN_TOKEN = "adm_money-out-walkthrough-token"
const PAIN = "urn:iso:std:iso:20022:tech:xsd:pain.001.001.09"
const OWNER = { "x-test-merchant": "", "x-test-role": "owner" }

interface Delivery {
  readonly path: string
  readonly headers: IncomingHttpHeaders
  readonly body: string
}

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)))
const closing = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()))
/** A JSON amount in cents, exactly: the test does no floating point on money either. */
const cents = (value: string | number) => {
  const [whole, fraction = ""] = String(value).split(".")
  return BigInt(`${whole}${fraction.padEnd(2, "0")}`)
}
const header = (request: IncomingMessage, name: string) => {
  const value = request.headers[name]
  return typeof value === "string" ? value : undefined
}

/**
 * Issue 35's walkthrough, from outside, on one store: a platform's kit behind node:http with its
 * dashboard, its admin API and a merchant whose webhook endpoint is a loopback receiver. A payout is
 * asked for in the dashboard, approved through the admin API, found in the manual rail's SEPA file
 * and CSV, marked paid, and its payout.paid verified with the standardwebhooks package; a sandbox
 * dispute is opened, answered with evidence and won, the wallet back where it was less the fee;
 * every book's trial balance is zero after all of it.
 */
export const moneyOutWalkthroughSuite = (name: string, database: () => string) =>
  describe(`money out, walked through from outside: ${name}`, () => {
    const received: Array<Delivery> = []
    let receiver: Server
    let server: Server
    let payments: MerchantPayments
    let origin = ""
    let hook = ""
    let merchantId = 0
    let client: MerchantClient
    let webhookSecret = ""

    const admin = async (method: string, path: string, body?: unknown) => {
      const response = await fetch(`${origin}/admin/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) })
      })
      const text = await response.text()
      return { status: response.status, type: response.headers.get("content-type") ?? "", text, json: text.startsWith("{") ? JSON.parse(text) : undefined }
    }
    const adminOk = async (method: string, path: string, body?: unknown) => {
      const answer = await admin(method, path, body)
      expect(answer.status, `${method} ${path}: ${answer.text}`).toBeLessThan(300)
      // Admin resources answer bare, as the contract's admin routes always have; issue 35's answer in `data`.
      return answer.json.data ?? answer.json
    }
    const dashboard = (path: string, form?: Readonly<Record<string, string>>) =>
      fetch(`${origin}${path}`, {
        redirect: "manual",
        ...(form === undefined
          ? { headers: { ...OWNER, "x-test-merchant": String(merchantId) } }
          : {
            method: "POST",
            headers: { ...OWNER, "x-test-merchant": String(merchantId), "content-type": "application/x-www-form-urlencoded" },
            body: new URLSearchParams(form).toString()
          })
      })
    const balanceEur = async () => (await client.request("listBalances", {})).data.find((wallet) => wallet.currency_code === "EUR")!
    const deliveryOf = (event: string, id: string) =>
      received.find((each) => {
        const body = JSON.parse(each.body)
        return body.event === event && body.data.id === id
      })
    const delivered = async (event: string, id: string) => {
      await until(() => deliveryOf(event, id) !== undefined, 20_000, `${event} of ${id} at the endpoint`)
      return deliveryOf(event, id)!
    }
    /** The reference library's verdict, given the webhook secret as issued. */
    const verifiedByStandardWebhooks = (delivery: Delivery) =>
      new Webhook(webhookSecret).verify(delivery.body, {
        "webhook-id": String(delivery.headers["webhook-id"]),
        "webhook-timestamp": String(delivery.headers["webhook-timestamp"]),
        "webhook-signature": String(delivery.headers["webhook-signature"])
      })

    beforeAll(async () => {
      receiver = createServer((request, response) => {
        const chunks: Array<Buffer> = []
        request.on("data", (chunk: Buffer) => chunks.push(chunk)).on("end", () => {
          received.push({ path: request.url ?? "/", headers: request.headers, body: Buffer.concat(chunks).toString("utf8") })
          response.writeHead(204).end()
        })
      })
      hook = await listen(receiver)
      server = createServer((request, response) => payments.handler(request, response))
      origin = await listen(server)
      payments = await createMerchantPayments({
        database: database(),
        masterKey: "6b".repeat(32),
        adminToken: ADMIN_TOKEN,
        baseUrl: origin,
        webhooks: { allowPrivateTargets: true, pollIntervalMillis: 20 },
        logging: false,
        dashboard: {
          authenticate: (request) => {
            const merchant = header(request, "x-test-merchant")
            return merchant === undefined ? null : { merchantId: Number(merchant), userId: "owner-1", role: "owner" }
          },
          signInUrl: "/login"
        }
      })
      await adminOk("PATCH", "/settings", { rate_limit_per_minute: 1_000_000 })
      const merchant = await adminOk("POST", "/merchants", { name: "Walkthrough GmbH", status: "approved", dispute_fee: "15.00" })
      merchantId = merchant.id
      await adminOk("PUT", `/merchants/${merchantId}/currencies`, { currency_codes: ["EUR"] })
      await adminOk("POST", `/merchants/${merchantId}/wallets`, { currency_code: "EUR", environment: "sandbox" })
      await adminOk("POST", "/gateways", { plugin: "sandbox", name: "Sandbox card", currency_code: "EUR", method: "sandbox" })
      await adminOk("PUT", "/payouts/bank-account", { name: "Walkthrough Platform AG", iban: "DE02 1203 0000 0000 2020 51", bic: "BYLADEM1001" })
      const issued = await adminOk("POST", `/merchants/${merchantId}/credentials`, { environment: "sandbox" })
      webhookSecret = issued.webhook_secret
      client = createMerchantClient({
        baseUrl: origin,
        environment: "sandbox",
        merchantKey: issued.merchant_key,
        apiKey: issued.api_key,
        clientSecret: issued.client_secret,
        webhookSecret: issued.webhook_secret
      })
    }, 60_000)
    afterAll(async () => {
      await payments?.close()
      if (server !== undefined) await closing(server)
      if (receiver !== undefined) await closing(receiver)
    })

    it("pays a merchant out from the dashboard to the SEPA file, answers and wins a dispute, and leaves every book at zero", async () => {
      await client.request("createWebhookEndpoint", { body: { url: `${hook}/account`, events: ["payout.*", "dispute.*"] } })
      await client.createPayoutDestination({ type: "bank_account", account_holder: "Walkthrough GmbH", iban: "DE89 3704 0044 0532 0130 00", bic: "COBADEFFXXX", currency: "EUR" })

      // A customer pays 200.00 in sandbox; its net is the wallet's.
      const initiated = await client.initiatePayment({
        payment_amount: "200.00", currency_code: "EUR", ref_trx: "walkthrough-1",
        success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/cancel", ipn_url: `${hook}/ipn`
      })
      const trxId = initiated.info.trx_id
      await client.simulatePayment(trxId, "success")
      const paid = await balanceEur()
      expect(cents(paid.balance)).toBeGreaterThan(5_000n)

      // The payout, asked for in the dashboard by the merchant's owner.
      const page = await (await dashboard("/dashboard/payouts?environment=sandbox")).text()
      const asked = await dashboard("/dashboard/payouts/request", {
        csrf_token: formTokenOf(page),
        environment: "sandbox",
        currency: "EUR",
        amount: "50.00",
        idempotency_key: /name="idempotency_key" value="([^"]+)"/.exec(page)![1]!,
        destination_id: /<option value="(pd_[0-9a-f]+)"/.exec(page)![1]!
      })
      expect(asked.status, await asked.text()).toBe(303)
      const payoutId = /\/dashboard\/payouts\/(po_[0-9a-f]+)/.exec(asked.headers.get("location") ?? "")![1]!
      const pending = (await client.request("getPayout", { path: { payoutId } })).data
      expect([pending.id, pending.status, cents(pending.amount), pending.currency]).toEqual([payoutId, "pending", 5_000n, "EUR"])
      expect(cents((await balanceEur()).balance)).toBe(cents(paid.balance) - 5_000n)

      // Approved through the admin API: the manual rail keeps it for the day's file.
      expect(await adminOk("POST", `/payouts/${payoutId}/approve`)).toMatchObject({ status: "approved" })
      const today = new Date().toISOString().slice(0, 10)
      const sepa = await admin("GET", `/payouts/export?date=${today}&environment=sandbox&currency=EUR&format=sepa`)
      expect([sepa.status, sepa.type]).toEqual([200, "application/xml; charset=utf-8"])
      const doc = new DOMParser().parseFromString(sepa.text, "application/xml")
      const texts = (tag: string) => Array.from(doc.getElementsByTagNameNS(PAIN, tag), (node) => node.textContent ?? "")
      expect(texts("EndToEndId")).toEqual([payoutId])
      expect(texts("InstdAmt")).toEqual(["50.00"])
      expect(texts("CtrlSum")).toContain("50.00")
      expect(texts("IBAN")).toContain("DE89370400440532013000")
      const csv = await admin("GET", `/payouts/export?date=${today}&environment=sandbox&currency=EUR`)
      expect(csv.text.split("\r\n")).toContain(`${payoutId},50.00,EUR,Walkthrough GmbH,DE89370400440532013000,COBADEFFXXX,${payoutId}`)

      // Marked paid: payout.paid reaches the endpoint, and the reference library verifies it.
      expect(await adminOk("POST", `/payouts/${payoutId}/mark-paid`, { reference: "SEPA-WALK-1" })).toMatchObject({ status: "paid", reference: "SEPA-WALK-1" })
      const paidEvent = await delivered("payout.paid", payoutId)
      expect(paidEvent.path).toBe("/account")
      expect(verifiedByStandardWebhooks(paidEvent)).toMatchObject({ event: "payout.paid", status: "paid", data: { id: payoutId, status: "paid", amount: 50 } })
      expect(() => new Webhook(webhookSecret).verify(paidEvent.body.replace("SEPA-WALK-1", "SEPA-WALK-2"), {
        "webhook-id": String(paidEvent.headers["webhook-id"]),
        "webhook-timestamp": String(paidEvent.headers["webhook-timestamp"]),
        "webhook-signature": String(paidEvent.headers["webhook-signature"])
      })).toThrow()

      // A sandbox dispute on the payment: opened, answered with evidence, won.
      const before = await balanceEur()
      const opened = await adminOk("POST", `/sandbox/payments/${trxId}/dispute`, { amount: "30.00", reason: "fraudulent" })
      expect(opened).toMatchObject({ status: "needs_response", amount: 30, fee: 15, trx_id: trxId })
      expect(cents((await balanceEur()).balance)).toBe(cents(before.balance) - 4_500n)
      const listed = await client.request("listDisputes", {})
      expect(listed.data.map((dispute) => dispute.id)).toEqual([opened.id])
      expect(Date.parse(listed.data[0]!.evidence_due_by)).toBeGreaterThan(Date.now())
      const answered = await client.request("submitDisputeEvidence", { path: { disputeId: opened.id }, body: { text: "Delivered to the cardholder's address; signed receipt attached." } })
      expect(answered.data).toMatchObject({ id: opened.id, status: "under_review" })
      expect(await adminOk("POST", `/sandbox/disputes/${opened.id}/close`, { outcome: "won" })).toMatchObject({ id: opened.id, status: "won" })
      expect(cents((await balanceEur()).balance)).toBe(cents(before.balance) - 1_500n)
      for (const event of ["dispute.created", "dispute.updated", "dispute.closed"]) {
        expect(verifiedByStandardWebhooks(await delivered(event, opened.id))).toMatchObject({ event, data: { id: opened.id } })
      }

      // Every book sums to zero: the platform's fee, the gateway's clearing, the payout paid, the dispute's fee.
      for (const environment of ["sandbox", "production"]) {
        const trial = await adminOk("GET", `/ledger/trial-balance?environment=${environment}&currency=EUR`)
        expect(trial.sum, `${environment}: ${JSON.stringify(trial.accounts)}`).toBe(0)
      }
      const sandbox = await adminOk("GET", "/ledger/trial-balance?environment=sandbox&currency=EUR")
      const account = (name: string) => sandbox.accounts.find((each: { account: string }) => each.account === name)?.balance ?? 0
      expect(cents(account(`merchant:${merchantId}:wallet`))).toBe(-cents((await balanceEur()).balance))
      expect(account("platform:payouts-paid")).toBe(-50)
      expect(account(`merchant:${merchantId}:dispute-hold`)).toBe(0)
      expect(account(`merchant:${merchantId}:payouts-in-transit`)).toBe(0)

      // What an operator's dashboards read.
      const metrics = await fetch(`${origin}/metrics`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }).then((response) => response.text())
      const samples = parseSamples(metrics)
      expect(valueOf(samples, "merchant_payments_payouts_total", { environment: "sandbox", status: "paid" })).toBeGreaterThanOrEqual(1)
      expect(valueOf(samples, "merchant_payments_disputes_opened_total", { environment: "sandbox" })).toBeGreaterThanOrEqual(1)
    }, 120_000)
  })

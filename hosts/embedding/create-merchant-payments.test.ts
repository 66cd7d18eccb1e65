import { createServer, type Server } from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import express from "express"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { pressButton } from "../../conformance/gateway/html-forms.js"
import { signRequest } from "../../core/signing/request-signature.js"
import { signedApiCall } from "../../testing/http/platform-dashboard.js"
import { AdminApiError, createMerchantPayments, type MerchantPayments } from "./index.js"

const MASTER_KEY = "11".repeat(32)

const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)))

const form = (fields: Readonly<Record<string, string>>) => ({
  method: "POST",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
  redirect: "manual" as const
})

/** A merchant onboarded through `payments.admin` alone: approved, USD, a sandbox wallet, a sandbox gateway, keys. */
const onboard = async (payments: MerchantPayments) => {
  const merchant = await payments.admin.merchants.create({ name: "Embedded Shop", status: "approved", fee_percent: "2.5" })
  await payments.admin.currencies.replace(merchant.id, ["USD"])
  await payments.admin.wallets.create(merchant.id, { currency_code: "USD", environment: "sandbox" })
  await payments.admin.gateways.create({ plugin: "sandbox", name: "Test card", currency_code: "USD", method: `card${merchant.id}` })
  return { merchant, credentials: await payments.admin.credentials.issue(merchant.id, "sandbox") }
}

describe("createMerchantPayments mounted under /payments in a plain node:http server", () => {
  let scratch = ""
  let payments: MerchantPayments
  let server: Server
  let origin = ""
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "mp-embedded-"))
    server = createServer((request, response) => {
      if (request.url === "/hello") return void response.end("the platform's own route")
      payments.handler(request, response)
    })
    origin = await listen(server)
    payments = await createMerchantPayments({
      database: `sqlite:${join(scratch, "payments.db")}`,
      masterKey: MASTER_KEY,
      baseUrl: origin,
      basePath: "/payments",
      webhooks: { allowPrivateTargets: true },
      logging: false
    })
  }, 60_000)
  afterAll(async () => {
    await payments.close()
    await new Promise((resolve) => server.close(resolve))
    rmSync(scratch, { recursive: true, force: true })
  })

  it("takes a signed payment through the base path, pays it on its checkout page and verifies it", async () => {
    const { credentials } = await onboard(payments)
    const initiated = await signedApiCall(origin, credentials, "POST", "/payments/api/v1/initiate-payment", {
      payment_amount: "12.50",
      currency_code: "USD",
      ref_trx: "embedded-1",
      success_redirect: "https://shop.example/ok",
      cancel_redirect: "https://shop.example/cancel",
      ipn_url: "https://shop.example/ipn"
    })
    expect(initiated.status, JSON.stringify(initiated.json)).toBe(200)
    const paymentUrl: string = initiated.json.payment_url
    expect(paymentUrl.startsWith(`${origin}/payments/checkout/`)).toBe(true)

    const page = await (await fetch(paymentUrl)).text()
    const gatewayId = /name="gateway_id" value="(\d+)"/.exec(page)![1]!
    const gatewayPage = await (await fetch(`${paymentUrl}/pay`, form({ gateway_id: gatewayId }))).text()
    const pay = pressButton(gatewayPage, "pay")!
    expect(pay.action?.startsWith(`${origin}/payments/checkout/`)).toBe(true)
    const returned = await fetch(pay.action!, form(pay.fields))
    expect([returned.status, returned.headers.get("location")?.startsWith("https://shop.example/ok")]).toEqual([303, true])

    const verified = await signedApiCall(origin, credentials, "GET", `/payments/api/v1/verify-payment/${initiated.json.info.trx_id}`)
    expect([verified.status, verified.json.status, verified.json.amount]).toEqual([200, "success", 12.5])
  })

  it("leaves the platform's routes alone and answers 404 outside its base path when called for them", async () => {
    expect(await (await fetch(`${origin}/hello`)).text()).toBe("the platform's own route")
    expect((await fetch(`${origin}/healthz`)).status).toBe(404)
    expect((await fetch(`${origin}/payments/healthz`)).status).toBe(200)
  })

  it("accepts a signature over the path relative to the base path, as the spec writes paths, and refuses one over another path", async () => {
    const { credentials } = await onboard(payments)
    const verifyWith = (signedPath: string) => {
      const timestamp = String(Math.floor(Date.now() / 1000))
      return fetch(`${origin}/payments/api/v1/verify-payment/SANDBOX_X`, {
        headers: {
          "x-environment": "sandbox",
          "x-merchant-key": credentials.merchant_key,
          "x-api-key": credentials.api_key,
          "x-timestamp": timestamp,
          "x-signature": signRequest(credentials.client_secret, { timestamp, method: "GET", pathWithQuery: signedPath, rawBody: "" })
        }
      })
    }
    // Authenticated either way: the unknown transaction is what is refused.
    for (const signedPath of ["/api/v1/verify-payment/SANDBOX_X", "/payments/api/v1/verify-payment/SANDBOX_X"]) {
      const response = await verifyWith(signedPath)
      expect(response.status, signedPath).toBe(404)
    }
    const other = await verifyWith("/shop/api/v1/verify-payment/SANDBOX_X")
    expect(other.status).toBe(401)
    expect(((await other.json()) as { message: string }).message).toBe("The request signature is invalid.")
  })

  it("gives the admin API typed, with its own refusals and exact amounts", async () => {
    const merchant = await payments.admin.merchants.create({ name: "Fees", fee_percent: "2.9", fee_fixed: "0.30" })
    expect(merchant).toMatchObject({ name: "Fees", status: "pending", fee_percent: "2.9", fee_fixed: "0.3" })
    const refused = await payments.admin.merchants.create({ name: "" }).then(() => undefined, (error: unknown) => error)
    expect(refused).toBeInstanceOf(AdminApiError)
    expect(refused).toMatchObject({ status: 422, errorCode: "VALIDATION_FAILED", errors: { name: [expect.any(String)] } })
    const wallet = await payments.admin.wallets.create(merchant.id, { currency_code: "USD", environment: "sandbox" })
    const adjusted = await payments.admin.wallets.adjust(wallet.id, { amount: "10.05", reason: "float" })
    expect(adjusted).toMatchObject({ amount: "10.05", balance: "10.05" })
    // The adjustment is in the books, exact: the wallet's account is minus its balance, and the book sums to zero.
    const book = await payments.admin.ledger.trialBalance("sandbox", "USD")
    expect(book.data.accounts.find((each) => each.account === `merchant:${merchant.id}:wallet`)).toEqual({ account: `merchant:${merchant.id}:wallet`, balance: "-10.05" })
    expect(book.data.sum).toBe("0")
    expect((await payments.admin.merchants.get(merchant.id)).id).toBe(merchant.id)
    // Those changes are in the audit log, the refusal too; the reads are not.
    const audit = await payments.admin.audit.list({ merchant_id: merchant.id })
    expect(audit.data.map((entry) => [entry.operation, entry.status])).toEqual([["adjustWallet", 201], ["createWallet", 201], ["createMerchant", 201]])
    expect(audit.data[0]).toMatchObject({ actor_type: "admin_token", source_address: "unknown", merchant_id: merchant.id })
    expect((await payments.admin.audit.list({ limit: 50 })).data.some((entry) => entry.operation === "createMerchant" && entry.status === 422)).toBe(true)
  })

  it("gives the operator's payout steps typed, their refusals as AdminApiError", async () => {
    const queue = await payments.admin.payouts.list({ status: "pending" })
    expect(queue).toMatchObject({ data: expect.any(Array), has_more: false, next_cursor: null })
    const missing = await payments.admin.payouts.approve("po_00000000000000000000000000000000").then(() => undefined, (error: unknown) => error)
    expect(missing).toBeInstanceOf(AdminApiError)
    expect(missing).toMatchObject({ status: 404, errorCode: "NOT_FOUND" })
    const unnamed = await payments.admin.payouts.reject("po_00000000000000000000000000000000", "").then(() => undefined, (error: unknown) => error)
    expect(unnamed).toMatchObject({ status: 422, errors: { reason: [expect.any(String)] } })
  })

  it("gives the operator's disputes typed, their refusals as AdminApiError", async () => {
    expect(await payments.admin.disputes.list({ status: "needs_response" })).toMatchObject({ data: expect.any(Array), has_more: false, next_cursor: null })
    const missing = await payments.admin.disputes.openSandbox("SANDBOX_NOPE", { reason: "fraudulent" }).then(() => undefined, (error: unknown) => error)
    expect(missing).toBeInstanceOf(AdminApiError)
    expect(missing).toMatchObject({ status: 404, errorCode: "NOT_FOUND" })
    const closed = await payments.admin.disputes.closeSandbox("dp_00000000000000000000000000000000", "won").then(() => undefined, (error: unknown) => error)
    expect(closed).toMatchObject({ status: 404, errorCode: "NOT_FOUND" })
  })

  it("manages dashboard users through payments.admin, their set-password links under the base path", async () => {
    const merchant = await payments.admin.merchants.create({ name: "Dashboard Owner" })
    const invited = await payments.admin.users.create(merchant.id, { email: "Owner@Shop.example", role: "owner" })
    expect(invited.data).toMatchObject({ email: "owner@shop.example", role: "owner" })
    expect(invited.data.set_password_url).toMatch(new RegExp(`^${origin}/payments/dashboard/set-password/[A-Za-z0-9_-]{43}$`))
    const fresh = await payments.admin.users.passwordLink(merchant.id, invited.data.id)
    expect(fresh.data.set_password_url).not.toBe(invited.data.set_password_url)
    expect((await payments.admin.users.setDisabled(merchant.id, invited.data.id, true)).data.status).toBe("disabled")
    expect((await payments.admin.users.list(merchant.id)).data.map((user) => [user.email, user.status])).toEqual([["owner@shop.example", "disabled"]])
    const taken = await payments.admin.users.create(merchant.id, { email: "owner@shop.example", role: "viewer" }).then(() => undefined, (error: unknown) => error)
    expect(taken).toMatchObject({ status: 409, errorCode: "USER_EXISTS" })
    expect(await payments.admin.users.delete(merchant.id, invited.data.id)).toEqual({ data: { id: invited.data.id, deleted: true } })
    expect((await payments.admin.users.list(merchant.id)).data).toEqual([])
  })
})

/** An Express app on a free port with a kit beside it, for one case; everything closed after. */
const withExpressKit = async (body: (app: express.Express, origin: string, payments: MerchantPayments) => Promise<void>) => {
  const scratch = mkdtempSync(join(tmpdir(), "mp-embedded-express-"))
  const app = express()
  const server = createServer(app)
  const origin = await listen(server)
  const payments = await createMerchantPayments({ database: `sqlite:${join(scratch, "p.db")}`, masterKey: MASTER_KEY, baseUrl: origin, basePath: "/payments", logging: false })
  try {
    await body(app, origin, payments)
  } finally {
    await payments.close()
    await new Promise((resolve) => server.close(resolve))
    rmSync(scratch, { recursive: true, force: true })
  }
}

describe("createMerchantPayments in an Express app", () => {
  it("mounts with app.use('/payments', handler) beside the app's own routes and body parser", () =>
    withExpressKit(async (app, origin, payments) => {
      app.get("/", (_request, response) => void response.send("home"))
      app.use("/payments", payments.handler)
      app.use(express.json())
      app.post("/orders", (request, response) => void response.json({ got: request.body }))

      const { credentials } = await onboard(payments)
      const info = await signedApiCall(origin, credentials, "GET", "/payments/api/v1/site-info")
      expect(info.status).toBe(200)
      const initiated = await signedApiCall(origin, credentials, "POST", "/payments/api/v1/initiate-payment", {
        payment_amount: 5, currency_code: "USD", ref_trx: "express-1",
        success_redirect: "https://shop.example/ok", cancel_redirect: "https://shop.example/c", ipn_url: "https://shop.example/ipn"
      })
      expect(initiated.status, JSON.stringify(initiated.json)).toBe(200)
      expect((await fetch(`${origin}/`)).status).toBe(200)
      expect(await (await fetch(`${origin}/orders`, { method: "POST", headers: { "content-type": "application/json" }, body: "{\"a\":1}" })).json()).toEqual({ got: { a: 1 } })
    }), 60_000)

  it("answers a clear error, not a signature failure, when express.json() consumed the body", () =>
    withExpressKit(async (app, origin, payments) => {
      app.use(express.json())
      app.use("/payments", payments.handler)
      const response = await fetch(`${origin}/payments/api/v1/initiate-payment`, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })
      expect(response.status).toBe(500)
      expect((await response.json() as { message: string }).message).toContain("mount the payments handler before express.json()")
    }), 60_000)
})

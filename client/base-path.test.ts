import { mkdtempSync, rmSync } from "node:fs"
import { createServer, type Server } from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createMerchantPayments, type IssuedCredentials, type MerchantPayments } from "../hosts/embedding/index.js"
import { createMerchantClient } from "./merchant-client.js"
import { recordingFetch } from "./testing/recording-fetch.js"

/**
 * The client against the kit embedded in a platform's node:http server under /payments: the base
 * URL's path is part of every call, and of every signature.
 */
describe("merchant client against the kit mounted under a base path", () => {
  let scratch = ""
  let payments: MerchantPayments
  let server: Server
  let origin = ""
  let credentials: IssuedCredentials
  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), "mp-client-embedded-"))
    server = createServer((request, response) => payments.handler(request, response))
    origin = await new Promise<string>((resolve) =>
      server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)))
    payments = await createMerchantPayments({
      database: `sqlite:${join(scratch, "payments.db")}`,
      masterKey: "22".repeat(32),
      baseUrl: origin,
      basePath: "/payments",
      webhooks: { allowPrivateTargets: true },
      logging: false
    })
    const merchant = await payments.admin.merchants.create({ name: "Mounted Shop", status: "approved" })
    await payments.admin.currencies.replace(merchant.id, ["USD"])
    await payments.admin.wallets.create(merchant.id, { currency_code: "USD", environment: "sandbox" })
    await payments.admin.gateways.create({ plugin: "sandbox", name: "Test card", currency_code: "USD", method: "card" })
    credentials = await payments.admin.credentials.issue(merchant.id, "sandbox")
  }, 60_000)

  afterAll(async () => {
    await payments.close()
    await new Promise((resolve) => server.close(resolve))
    rmSync(scratch, { recursive: true, force: true })
  })

  const clientAt = (baseUrl: string, fetchFunction?: ReturnType<typeof recordingFetch>["fetch"]) =>
    createMerchantClient({
      baseUrl,
      merchantKey: credentials.merchant_key,
      apiKey: credentials.api_key,
      clientSecret: credentials.client_secret,
      webhookSecret: credentials.webhook_secret,
      environment: "sandbox",
      ...(fetchFunction === undefined ? {} : { fetch: fetchFunction })
    })

  it("pays and verifies a payment, every call signed over the full path it called", async () => {
    const recorded = recordingFetch()
    const client = clientAt(`${origin}/payments`, recorded.fetch)
    const session = await client.initiatePayment({
      payment_amount: "12.50",
      currency_code: "USD",
      ref_trx: "mounted-1",
      success_redirect: "https://shop.example/ok",
      cancel_redirect: "https://shop.example/cancel",
      ipn_url: "https://shop.example/ipn"
    })
    expect(session.payment_url.startsWith(`${origin}/payments/checkout/`)).toBe(true)
    await client.simulatePayment(session.info.trx_id, "success")
    expect(await client.verifyPayment(session.info.trx_id)).toMatchObject({ status: "success", amount: "12.5" })
    expect(recorded.attempts.map((attempt) => new URL(attempt.url).pathname)).toEqual([
      "/payments/api/v1/initiate-payment",
      `/payments/api/v1/sandbox/payments/${session.info.trx_id}/simulate`,
      `/payments/api/v1/verify-payment/${session.info.trx_id}`
    ])
  })

  it("signs the query with the path, and takes a base URL with a trailing slash", async () => {
    const client = clientAt(`${origin}/payments/`)
    const page = await client.listSubscriptions({ page: 1, per_page: 5 })
    expect(page.meta).toMatchObject({ current_page: 1, per_page: 5 })
    expect((await client.siteInfo()).api_version).toBe("1.0")
  })

  it("is refused where the base path is missing: the kit answers only under its mount point", async () => {
    await expect(clientAt(origin, undefined).siteInfo()).rejects.toMatchObject({ name: "MerchantApiError", status: 404 })
  })
})

import { HttpApp } from "@effect/platform"
import { Effect, LogLevel, Logger, ManagedRuntime } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { httpApp } from "../../adapters/http/app.js"
import { createGateway } from "../../core/gateways/gateway-admin.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../../core/merchants/merchant-admin.js"
import { defaultSiteSettings } from "../../core/settings/site-settings.js"
import { makeManualClock } from "../../core/shared/manual-clock.js"
import { createWallet } from "../../core/wallets/wallet-admin.js"
import { defaultWebhookConfig, kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { signedRequest, type TestCaller } from "../../testing/http/signed-client.js"
import { pdfText } from "../../testing/pdf-text.js"
import { testKitConfig } from "./test-kit-config.js"

type Json = Record<string, any>

const CONCURRENT = 10

/**
 * Issue 36, item 6, through the kit's own HTTP edge: invoices opened at once by concurrent creates
 * are numbered 1..N with no gap or repeat, and the invoice PDF (and a paid invoice's receipt) read
 * back by a PDF parser carries the right number, line, total and payment.
 */
export const invoiceDocumentSuite = (name: string, store: () => StoreConfig) =>
  describe(`invoice numbers and documents: ${name}`, () => {
    const manual = makeManualClock(Date.UTC(2030, 4, 1, 12, 0, 0))
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    let handler: (request: Request) => Promise<Response>
    let shop: TestCaller
    let other: TestCaller

    beforeAll(async () => {
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store(), {
        manualClock: manual,
        scheduler: { enabled: false, batchSize: 100 },
        settings: { ...defaultSiteSettings, rateLimitPerMinute: 1_000_000 },
        // No background jobs: the IPN URL below is only checked, never called.
        webhooks: { ...defaultWebhookConfig, allowPrivateTargets: true }
      })))
      const merchant = (merchantName: string) =>
        runtime.runPromise(Effect.gen(function*() {
          const created = yield* createMerchant({ name: merchantName, status: "approved" })
          yield* replaceCurrencies(created.id, ["USD"])
          yield* createWallet(created.id, "USD", "sandbox")
          yield* createGateway({ plugin: "sandbox", name: "Card", currencyCode: "USD", method: `card${created.id}`, type: "automatic", active: true })
          const issued = yield* issueCredentials(created.id, "sandbox")
          return { environment: "sandbox" as const, merchantKey: issued.merchantKey, apiKey: issued.apiKey, clientSecret: issued.clientSecret }
        }) as Effect.Effect<TestCaller>)
      shop = await merchant("Invoice Roasters Ltd")
      other = await merchant("Someone Else")
      handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp.pipe(Effect.withClock(manual.clock), Logger.withMinimumLogLevel(LogLevel.Error)))
    })
    afterAll(() => runtime.dispose())

    const send = (caller: TestCaller, method: string, path: string, body: unknown = undefined) =>
      handler(signedRequest(caller, method, path, body === undefined ? "" : JSON.stringify(body)))
    const call = async (caller: TestCaller, method: string, path: string, body: unknown = undefined) => {
      const response = await send(caller, method, path, body)
      return { status: response.status, json: (await response.json()) as Json }
    }
    const subscribe = (caller: TestCaller, reference: string, description?: string) =>
      call(caller, "POST", "/api/v1/subscriptions", {
        external_reference: reference,
        billing_cycle: "monthly",
        payment_amount: "19.99",
        currency_code: "USD",
        customer_email: "ada@example.test",
        customer_name: "Ada Lovelace",
        ...(description === undefined ? {} : { description }),
        success_redirect: "https://shop.example/ok",
        cancel_redirect: "https://shop.example/cancel",
        ipn_url: "http://127.0.0.1:9/ipn"
      })

    it(`${CONCURRENT} subscriptions created at once open invoices numbered 1..${CONCURRENT} exactly`, async () => {
      const created = await Promise.all(Array.from({ length: CONCURRENT }, (_, i) => subscribe(shop, `race-${i}`)))
      expect(created.map((answer) => answer.status), JSON.stringify(created[0]?.json)).toEqual(Array(CONCURRENT).fill(201))
      const numbers = created.map((answer) => answer.json["data"]["latest_invoice"]["number"] as string).sort()
      expect(numbers).toEqual(Array.from({ length: CONCURRENT }, (_, i) => `INV-2030-${String(i + 1).padStart(6, "0")}`))
      // Another merchant's series is its own.
      const elsewhere = await subscribe(other, "elsewhere-1")
      expect(elsewhere.json["data"]["latest_invoice"]["number"]).toBe("INV-2030-000001")
      // The contract's invoice fields are unchanged; the number is added after them.
      expect(Object.keys(created[0]!.json["data"]["latest_invoice"]).at(-1)).toBe("number")
    })

    it("the invoice PDF and, once paid, its receipt read back with the right number, line, total and payment", async () => {
      const created = await subscribe(shop, "pdf-1", "Roasted beans, 1 kg monthly")
      const subscription = created.json["data"] as Json
      const invoice = subscription["latest_invoice"] as Json
      const number = invoice["number"] as string
      expect(number).toMatch(/^INV-2030-\d{6}$/)
      const pdfPath = `/api/v1/subscriptions/${subscription["id"]}/invoices/${invoice["id"]}/pdf`

      const open = await send(shop, "GET", pdfPath)
      expect(open.status).toBe(200)
      expect(open.headers.get("content-type")).toBe("application/pdf")
      expect(open.headers.get("content-disposition")).toBe(`attachment; filename="invoice-${number}.pdf"`)
      const openText = await pdfText(new Uint8Array(await open.arrayBuffer()))
      for (const expected of [
        "Invoice Roasters Ltd", `Invoice ${number}`, "Issue date: 2030-05-01", "Period: 2030-05-01 to 2030-06-01",
        "Ada Lovelace <ada@example.test>", "Roasted beans, 1 kg monthly", "Total", "19.99 USD", "Open (awaiting payment)", "SANDBOX"
      ]) expect(openText).toContain(expected)

      // No receipt before it is paid: a clear 409.
      const early = await call(shop, "GET", `${pdfPath}?kind=receipt`)
      expect(early.status).toBe(409)
      expect(early.json["message"]).toBe("The invoice is not paid: only a paid invoice has a receipt.")

      await runtime.runPromise(manual.advance(600))
      const paid = await call(shop, "POST", `/api/v1/sandbox/payments/${invoice["trx_id"]}/simulate`, { outcome: "success" })
      expect(paid.status, JSON.stringify(paid.json)).toBe(200)

      const receipt = await send(shop, "GET", `${pdfPath}?kind=receipt`)
      expect(receipt.status).toBe(200)
      expect(receipt.headers.get("content-disposition")).toBe(`attachment; filename="receipt-${number}.pdf"`)
      const receiptText = await pdfText(new Uint8Array(await receipt.arrayBuffer()))
      for (const expected of [
        `Payment receipt ${number}`, "Paid on: 2030-05-01", `Payment: ${invoice["trx_id"]}`, "Roasted beans, 1 kg monthly", "Total paid", "19.99 USD"
      ]) expect(receiptText).toContain(expected)
      const paidInvoice = await send(shop, "GET", pdfPath)
      expect(await pdfText(new Uint8Array(await paidInvoice.arrayBuffer()))).toContain("Status: Paid")
    })

    it("another merchant's invoice, an unknown one and one of another subscription are 404; a bad kind is 422", async () => {
      const mine = (await subscribe(shop, "scope-1")).json["data"] as Json
      const second = (await subscribe(shop, "scope-2")).json["data"] as Json
      const theirs = (await subscribe(other, "scope-theirs")).json["data"] as Json
      const path = (subscription: Json, invoiceId: string) => `/api/v1/subscriptions/${subscription["id"]}/invoices/${invoiceId}/pdf`
      const status = async (caller: TestCaller, target: string) => (await send(caller, "GET", target)).status

      expect(await status(shop, path(theirs, theirs["latest_invoice"]["id"]))).toBe(404)
      expect(await status(other, path(mine, mine["latest_invoice"]["id"]))).toBe(404)
      expect(await status(shop, path(mine, "00000000-0000-0000-0000-000000000000"))).toBe(404)
      const crossed = await call(shop, "GET", path(mine, second["latest_invoice"]["id"]))
      expect(crossed).toMatchObject({ status: 404, json: { message: "Invoice not found." } })
      const badKind = await call(shop, "GET", `${path(mine, mine["latest_invoice"]["id"])}?kind=statement`)
      expect(badKind.status).toBe(422)
      // Unsigned: refused like any merchant API call.
      expect((await handler(new Request(`http://kit.test${path(mine, mine["latest_invoice"]["id"])}`))).status).toBe(401)
    })
  })

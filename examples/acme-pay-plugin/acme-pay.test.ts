import { Effect, Either, Logger, LogLevel } from "effect"
import { describe, expect, it } from "vitest"
import type { GatewayPluginDefinition, GatewayRef } from "../../core/gateways/gateway-plugin.js"
import { hostPlugin } from "../../core/gateways/plugin-hosting.js"
import { checkPluginShape } from "../../core/gateways/plugin-shape.js"
import { readPayPageQuery, signNotification, signReturn } from "./acme-pay-gateway.mjs"
import acmePay from "./acme-pay.mjs"

const SECRET = "whsec_acme_0123456789abcdef"
const RAW_CONFIG = { pay_page_url: "https://pay.acme.test/checkout?lang=en", signing_secret: SECRET }
const gateway: GatewayRef = { id: 7, code: "acme-usd", name: "Acme Pay" }
const payment = { trxId: "TRX-ACME-0001", amount: "12.50", currency: "USD", environment: "sandbox" as const, gateway }

const hosted = hostPlugin(acmePay as GatewayPluginDefinition, { callTimeoutMillis: 2_000 })
// Each call logs a line at info; a test run shows only what goes wrong.
const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect.pipe(Logger.withMinimumLogLevel(LogLevel.Warning)))
const config = () => run(hosted.parseConfig(RAW_CONFIG))
const configRefusal = async (raw: unknown) => {
  const exit = await run(Effect.either(hosted.parseConfig(raw)))
  if (Either.isRight(exit)) throw new Error("the config was accepted")
  expect(exit.left._tag).toBe("GatewayConfigRejected")
  return exit.left.message
}

const returned = async (fields: Record<string, string>) =>
  run(hosted.handleReturn({ ...payment, config: await config(), fields, gatewayReference: null }))

const notified = async (rawBody: Uint8Array, headers: Record<string, string>) =>
  run(hosted.handleNotification({ rawBody, headers, config: await config(), environment: "sandbox", gateway }))

describe("the Acme Pay example plugin", () => {
  it("is a well-formed API version 2 plugin with notifications only and its secret declared", () => {
    expect(Either.isRight(checkPluginShape(acmePay))).toBe(true)
    expect(hosted.capabilities).toEqual({ notifications: true, statusSync: false, refunds: false, partialRefunds: false, payouts: false, disputeEvidence: false, savedMethods: false })
    expect(hosted.secretConfigKeys).toEqual(["signing_secret"])
  })

  it("refuses a config without a usable page URL or secret, saying which field", async () => {
    expect(await configRefusal({ signing_secret: SECRET })).toMatch(/^pay_page_url must be the http\(s\) URL/)
    expect(await configRefusal({ ...RAW_CONFIG, pay_page_url: "ftp://pay.acme.test" })).toMatch(/^pay_page_url/)
    expect(await configRefusal({ ...RAW_CONFIG, pay_page_url: "not a url" })).toMatch(/^pay_page_url/)
    expect(await configRefusal({ ...RAW_CONFIG, signing_secret: "short" })).toBe("signing_secret must be at least 16 characters")
    expect(await configRefusal(null)).toMatch(/^pay_page_url/)
    expect(await config()).toEqual(RAW_CONFIG)
  })

  it("sends the customer to the hosted page with the payment, its own query kept", async () => {
    const start = await run(hosted.beginCheckout({
      ...payment,
      displayAmount: "12.50",
      description: null,
      merchantName: "Demo shop",
      config: await config(),
      returnUrl: "https://kit.test/checkout/return?t=abc",
      cancelUrl: "https://kit.test/checkout/cancel",
      notifyUrl: "https://kit.test/gateways/7/notify"
    }))
    if (!("redirect" in start)) throw new Error("expected a redirect")
    expect(start.redirect.startsWith("https://pay.acme.test/checkout?")).toBe(true)
    expect(readPayPageQuery(start.redirect)).toEqual({
      lang: "en",
      trx: "TRX-ACME-0001",
      amount: "12.50",
      currency: "USD",
      return_url: "https://kit.test/checkout/return?t=abc",
      notify_url: "https://kit.test/gateways/7/notify"
    })
  })

  it("verifies a return signed by the gateway, for each outcome", async () => {
    for (const status of ["paid", "declined", "cancelled"]) {
      const fields = signReturn(SECRET, { trx_id: payment.trxId, status, amount: "12.50", currency: "USD" })
      expect(await returned(fields)).toEqual({ outcome: status, verified: true })
    }
  })

  it("does not verify a return signed for another amount, payment or secret, or tampered with", async () => {
    const paid = { trx_id: payment.trxId, status: "paid", amount: "12.50", currency: "USD" }
    const unverified = { outcome: "paid", verified: false }
    expect(await returned(signReturn(SECRET, { ...paid, amount: "1.25" }))).toEqual(unverified)
    expect(await returned(signReturn(SECRET, { ...paid, currency: "EUR" }))).toEqual(unverified)
    expect(await returned(signReturn("another_secret_0123456789", paid))).toEqual(unverified)
    expect(await returned({ ...signReturn(SECRET, { ...paid, trx_id: "TRX-OTHER" }) })).toEqual(unverified)
    const declined = signReturn(SECRET, { ...paid, status: "declined" })
    expect(await returned({ ...declined, status: "paid" })).toEqual(unverified)
    expect(await returned({ trx_id: payment.trxId, status: "paid" })).toEqual(unverified)
    expect(await returned({ trx_id: payment.trxId, status: "refunded", signature: "00" })).toEqual({ outcome: "pending", verified: false })
  })

  it("verifies a signed notification and reports what it says", async () => {
    const { rawBody, headers } = signNotification(SECRET, { trx_id: payment.trxId, status: "paid", amount: "12.50", currency: "USD" })
    expect(await notified(rawBody, headers)).toEqual({ trxId: payment.trxId, outcome: "paid", amount: "12.50", currency: "USD", verified: true })
  })

  it("reports a tampered notification as unverified", async () => {
    const { rawBody, headers } = signNotification(SECRET, { trx_id: payment.trxId, status: "declined", amount: "12.50", currency: "USD" })
    const tampered = Buffer.from(Buffer.from(rawBody).toString("utf8").replace("declined", "paid"))
    expect(await notified(tampered, headers)).toMatchObject({ outcome: "paid", verified: false })
    expect(await notified(rawBody, { ...headers, "x-acme-signature": "ab".repeat(32) })).toMatchObject({ outcome: "declined", verified: false })
    expect(await notified(rawBody, {})).toMatchObject({ verified: false })
  })

  it("answers 400 to a body that is not JSON or not an Acme Pay notification", async () => {
    const notJson = signNotification(SECRET, {})
    expect(await notified(Buffer.from("{not json"), notJson.headers)).toEqual({ ignore: true, reply: { status: 400 } })
    const numeric = signNotification(SECRET, { trx_id: payment.trxId, status: "paid", amount: 12.5, currency: "USD" })
    expect(await notified(numeric.rawBody, numeric.headers)).toEqual({ ignore: true, reply: { status: 400 } })
  })
})

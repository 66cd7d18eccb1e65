import { HttpApp } from "@effect/platform"
import { Effect, Layer, Logger, LogLevel, ManagedRuntime } from "effect"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createGateway } from "../core/gateways/gateway-admin.js"
import { GATEWAY_PLUGIN_API_VERSION, type GatewayPluginDefinition } from "../core/gateways/gateway-plugin.js"
import type { SettlementContext, SettlementReportLine } from "../core/gateways/settlement-report.js"
import type { AuthenticatedMerchant } from "../core/merchants/authenticator.js"
import { createMerchant, issueCredentials, replaceCurrencies } from "../core/merchants/merchant-admin.js"
import { CheckoutAttempts } from "../core/payments/checkout-attempts.js"
import { finishPayment } from "../core/payments/finish-payment.js"
import { initiatePayment } from "../core/payments/initiate-payment.js"
import { now } from "../core/shared/instant.js"
import { createWallet } from "../core/wallets/wallet-admin.js"
import { httpApp } from "../adapters/http/app.js"
import { kitLayer } from "../hosts/kit-layer.js"
import { testKitConfig } from "./suites/test-kit-config.js"

/** A gateway whose settlement is whatever the test says it is; every call it was asked is kept. */
let settlement: ReadonlyArray<SettlementReportLine> = []
const asked: Array<SettlementContext<unknown>> = []
const settling: GatewayPluginDefinition = {
  id: "settling",
  displayName: "Settling",
  version: "1.0.0",
  apiVersion: GATEWAY_PLUGIN_API_VERSION,
  currencies: "any",
  environments: ["sandbox", "production"],
  parseConfig: (raw) => raw,
  beginCheckout: () => ({ redirect: "https://gateway.example/pay" }),
  handleReturn: () => ({ outcome: "pending", verified: false }),
  settlementReport: (context) => {
    asked.push(context)
    return settlement
  }
}

const runtime = ManagedRuntime.make(kitLayer(testKitConfig(
  { kind: "sqlite", filename: join(mkdtempSync(join(tmpdir(), "mp-recon-run-")), "store.db") },
  { plugins: [settling] }
)).pipe(Layer.provide(Logger.minimumLogLevel(LogLevel.Warning))))
let handler: (request: Request) => Promise<Response>
let code: string
let settled: string
let unsettled: string

beforeAll(async () => {
  handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp)
  const made = await runtime.runPromise(Effect.gen(function*() {
    const merchant = yield* createMerchant({ name: "Run shop", status: "approved" })
    yield* replaceCurrencies(merchant.id, ["USD"])
    yield* createWallet(merchant.id, "USD", "sandbox")
    const gateway = yield* createGateway({ plugin: "settling", name: "Settling", currencyCode: "USD", method: "settling", type: "automatic", active: true, config: {} })
    const issued = yield* issueCredentials(merchant.id, "sandbox")
    const caller = { merchant, environment: "sandbox", credentials: { merchantId: merchant.id, environment: "sandbox", merchantKey: issued.merchantKey }, clientSecret: issued.clientSecret } as unknown as AuthenticatedMerchant
    const paid = (amount: string, ref: string) =>
      Effect.gen(function*() {
        const session = yield* initiatePayment(caller, {
          amount: { kind: "string", value: amount }, currency: "USD", refTrx: ref, successRedirect: "https://shop.example/ok",
          cancelRedirect: "https://shop.example/cancel", ipnUrl: "https://shop.example/ipn", description: null, customerName: null, customerEmail: null, keywords: []
        })
        const trxId = session.payment.trxId
        yield* (yield* CheckoutAttempts).begin(trxId, gateway.id, yield* now, null)
        yield* (yield* CheckoutAttempts).setReference(trxId, gateway.id, `st-${trxId}`)
        yield* finishPayment(trxId, { outcome: "paid", gatewayId: gateway.id })
        return trxId
      })
    return { code: gateway.code, settled: yield* paid("40.00", "run-1"), unsettled: yield* paid("9.99", "run-2") }
  }))
  ;({ code, settled, unsettled } = made)
})
afterAll(() => runtime.dispose())

const run = async (body: unknown) => {
  const response = await handler(new Request("http://kit.test/admin/v1/reconciliation/runs", {
    method: "POST",
    headers: { authorization: "Bearer admin-token", "content-type": "application/json" },
    body: JSON.stringify(body)
  }))
  return { status: response.status, body: await response.json() as any }
}

describe("POST /admin/v1/reconciliation/runs", () => {
  it("asks the gateway's plugin for the period's settlement and reconciles it as an upload is", async () => {
    const day = 86_400_000
    const from = new Date(Math.floor(Date.now() / day) * day - day).toISOString()
    const to = new Date(Math.floor(Date.now() / day) * day + 2 * day).toISOString()
    const settledAt = new Date().toISOString()
    settlement = [
      { gatewayReference: `st-${settled}`, type: "payment", amount: "40.00", currency: "USD", settledAt },
      { gatewayReference: `st-${settled}`, type: "fee", amount: "-1.46", currency: "USD", settledAt },
      { gatewayReference: "st-nobody", type: "payment", amount: "3.00", currency: "USD", settledAt }
    ]
    const answered = await run({ gateway: code, environment: "sandbox", from, to })
    expect(answered.status).toBe(201)
    expect(answered.body.data).toMatchObject({
      gateway: code,
      source: "gateway",
      line_count: 3,
      counts: { matched: 1, missing_in_kit: 1, missing_at_gateway: 1, amount_differs: 0, gateway_only: 1 }
    })
    expect(asked.at(-1)).toMatchObject({ environment: "sandbox", gateway: { code }, from: from.replace(/\.\d{3}Z$/, ".000000Z"), to: to.replace(/\.\d{3}Z$/, ".000000Z") })
    const lines = await handler(new Request(`http://kit.test/admin/v1/reconciliation/reports/${answered.body.data.id}/lines?outcome=missing_at_gateway`, {
      headers: { authorization: "Bearer admin-token" }
    }))
    expect(((await lines.json()) as any).data).toMatchObject([{ kit_record: unsettled, kit_amount: 9.99 }])
  })

  it("refuses a plugin's line outside the period as the plugin's failure, storing nothing", async () => {
    settlement = [{ gatewayReference: "st-late", type: "payment", amount: "1.00", currency: "USD", settledAt: "2031-01-01T00:00:00Z" }]
    const answered = await run({ gateway: code, environment: "sandbox", from: "2030-01-01T00:00:00Z", to: "2030-02-01T00:00:00Z" })
    expect(answered.status).toBe(503)
    const refused = await run({ gateway: code, environment: "sandbox", from: "2030-02-01T00:00:00Z", to: "2030-01-01T00:00:00Z" })
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toEqual({ to: ["The to time must be after from."] })
  })
})

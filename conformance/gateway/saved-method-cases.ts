import * as Effect from "effect/Effect"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import { expect, it } from "vitest"
import type { CheckoutContext, GatewayPluginDefinition, PluginCapabilities } from "../../core/gateways/gateway-plugin.js"
import { hostPlugin } from "../../core/gateways/plugin-hosting.js"
import type { CheckoutAtGateway, GatewayDriver } from "./driver.js"

const run = <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(effect.pipe(Logger.withMinimumLogLevel(LogLevel.None)))

let counter = 0

/**
 * A plugin that claims `savedMethods`, held to its word: a checkout told to save the method reports a
 * well-formed saved method once paid (and one not told reports none), by its return and by its
 * notification alike (the customer may never come back); `chargeSaved` charges it, answers
 * a repeated idempotency key as it did the first time, and reports a declining method as a decline.
 */
export const savedMethodCases = (plugin: GatewayPluginDefinition, driver: GatewayDriver, capabilities: PluginCapabilities) => {
  const runnable = capabilities.savedMethods && driver.savingCustomer !== undefined
  const hosted = hostPlugin(plugin, { callTimeoutMillis: 5_000 })
  const environment = driver.environment ?? (plugin.environments.includes("sandbox") ? "sandbox" : "production")
  const currency = driver.currency ?? (plugin.currencies === "any" ? "USD" : plugin.currencies[0]!)

  const saved = async (kind: "chargeable" | "declining") => {
    const config = await run(hosted.parseConfig(driver.config))
    const trxId = `SAVE_${Date.now().toString(36).toUpperCase()}_${++counter}`
    const returnUrl = `https://kit.example/checkout/${trxId}/return/7`
    const context: CheckoutContext<unknown> = {
      trxId, amount: "12.50", currency, environment, gateway: { id: 7, code: "conformance", name: "Conformance" }, config,
      displayAmount: "12.50", description: "Monthly plan", merchantName: "Conformance shop",
      returnUrl, cancelUrl: `https://kit.example/checkout/${trxId}/cancel`, notifyUrl: "https://kit.example/gateways/7/notify",
      saveMethod: { usage: "off_session", customerEmail: "saver@example.com", customerName: "Sam Saver" }
    }
    const start = await run(hosted.beginCheckout(context))
    const checkout: CheckoutAtGateway = {
      trxId, amount: "12.50", currency, environment, start, page: "html" in start ? start.html : undefined, returnUrl,
      gatewayReference: start.gatewayReference ?? null
    }
    const fields = await driver.savingCustomer!(checkout, kind)
    expect(fields, "the driver could not pay a saving checkout").toBeDefined()
    const report = await run(hosted.handleReturn({
      trxId, amount: "12.50", currency, environment, gateway: context.gateway, config, fields: fields!, gatewayReference: checkout.gatewayReference
    }))
    return { config, report, context, checkout }
  }

  it.skipIf(!runnable)("saved methods: a saving checkout, once paid, reports a reusable method with its display facts", async () => {
    const { report } = await saved("chargeable")
    expect(report).toMatchObject({ outcome: "paid", verified: true })
    expect(report.savedMethod).toMatchObject({ reference: expect.any(String), brand: expect.stringMatching(/^[a-z]/), last4: expect.stringMatching(/^\d{4}$/) })
    expect(report.savedMethod!.expMonth).toBeGreaterThanOrEqual(1)
    expect(report.savedMethod!.expMonth).toBeLessThanOrEqual(12)
  })

  it.skipIf(!runnable || !capabilities.notifications || driver.notification === undefined)(
    "saved methods: the paid notification of a saving checkout reports the same method as its return",
    async () => {
      const { config, context, checkout, report } = await saved("chargeable")
      const notification = await driver.notification!(checkout, "paid")
      const heard = await run(hosted.handleNotification({ ...notification, config, environment, gateway: context.gateway }))
      expect(heard).toMatchObject({ trxId: checkout.trxId, outcome: "paid", verified: true, savedMethod: report.savedMethod })
    }
  )

  it.skipIf(!runnable)("saved methods: chargeSaved pays a chargeable method, and the same idempotency key gets the same answer", async () => {
    const { config, context, report } = await saved("chargeable")
    const charge = (idempotencyKey: string) =>
      run(hosted.chargeSaved({
        method: report.savedMethod!.reference, amount: "12.50", currency, reference: "INV-conformance", idempotencyKey,
        environment, gateway: context.gateway, config
      }))
    const key = `renewal-conformance-${counter}-1`
    const first = await charge(key)
    expect(first.status).toBe("paid")
    expect(await charge(key)).toEqual(first)
  })

  it.skipIf(!runnable)("saved methods: a declining method's charge is a decline with the gateway's words, never paid", async () => {
    const { config, context, report } = await saved("declining")
    const answer = await run(hosted.chargeSaved({
      method: report.savedMethod!.reference, amount: "12.50", currency, reference: "INV-conformance", idempotencyKey: `renewal-declining-${counter}`,
      environment, gateway: context.gateway, config
    }))
    expect(["declined", "hard_declined", "authentication_required"]).toContain(answer.status)
    expect(answer.message).toBeTruthy()
  })
}

import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { definePlugin, GATEWAY_PLUGIN_API_VERSION } from "./define-plugin.js"
import type { GatewayPluginDefinition, SavedMethodChargeContext, TestMethodContext } from "./gateway-plugin.js"
import { hostPlugin } from "./plugin-hosting.js"

const base = {
  id: "acme",
  displayName: "Acme",
  version: "1.0.0",
  apiVersion: GATEWAY_PLUGIN_API_VERSION,
  currencies: "any" as const,
  environments: ["sandbox" as const],
  parseConfig: (raw: unknown) => raw,
  beginCheckout: async () => ({ redirect: "https://acme.example/pay" }),
  handleReturn: async () => ({ outcome: "paid" as const, verified: true })
}

const charge: SavedMethodChargeContext<unknown> = {
  method: "m_1", amount: "9.99", currency: "USD", reference: "INV-1", idempotencyKey: "k1",
  environment: "sandbox", gateway: { id: 1, code: "acme", name: "Acme" }, config: {}
}

const failureOf = (plugin: GatewayPluginDefinition) => Effect.runPromise(Effect.flip(hostPlugin(plugin).chargeSaved(charge)))

describe("the savedMethods capability", () => {
  it("needs chargeSaved; without the capability chargeSaved is unsupported", async () => {
    expect(() => definePlugin({ ...base, capabilities: { savedMethods: true } })).toThrow("capabilities.savedMethods is true but chargeSaved is missing")
    const unclaimed = { ...base, chargeSaved: async () => ({ status: "paid" as const, gatewayReference: "ch_1" }) }
    expect(await failureOf(unclaimed)).toMatchObject({ reason: "unsupported", call: "chargeSaved" })
  })

  it("passes the charge through and checks the answer's shape: a decline needs a message, paid a reference", async () => {
    const seen: Array<SavedMethodChargeContext<unknown>> = []
    const plugin = (answer: unknown): GatewayPluginDefinition => ({
      ...base,
      capabilities: { savedMethods: true },
      chargeSaved: async (context) => {
        seen.push(context)
        return answer as never
      }
    })
    expect(await Effect.runPromise(hostPlugin(plugin({ status: "declined", message: "Insufficient funds." })).chargeSaved(charge)))
      .toEqual({ status: "declined", message: "Insufficient funds." })
    expect(seen[0]).toMatchObject({ method: "m_1", amount: "9.99", idempotencyKey: "k1" })
    expect(await failureOf(plugin({ status: "declined" }))).toMatchObject({ reason: "malformed" })
    expect(await failureOf(plugin({ status: "paid" }))).toMatchObject({ reason: "malformed" })
    expect(await failureOf(plugin({ status: "maybe", message: "?" }))).toMatchObject({ reason: "malformed" })
  })

  it("checks a reported saved method's display facts", async () => {
    const returning = (savedMethod: unknown): GatewayPluginDefinition => ({ ...base, handleReturn: async () => ({ outcome: "paid", verified: true, savedMethod }) as never })
    const context = { trxId: "T1", amount: "1.00", currency: "USD", environment: "sandbox" as const, gateway: charge.gateway, config: {}, fields: {}, gatewayReference: null }
    const good = { reference: "cus_1|pm_1", brand: "visa", last4: "4242", expMonth: 12, expYear: 2030 }
    expect((await Effect.runPromise(hostPlugin(returning(good)).handleReturn(context))).savedMethod).toEqual(good)
    for (const bad of [{ ...good, last4: "42" }, { ...good, expMonth: 13 }, { ...good, reference: "" }]) {
      expect(await Effect.runPromise(Effect.flip(hostPlugin(returning(bad)).handleReturn(context)))).toMatchObject({ reason: "malformed" })
    }
  })

  it("offers a simulator's saved test method only with savedMethods, and only in sandbox: in production the plugin is never asked", async () => {
    const good = { reference: "sbx_pm_decline_TEST-1", brand: "visa", last4: "9995", expMonth: 12, expYear: 2034 }
    const asked: Array<TestMethodContext<unknown>> = []
    const simulator: GatewayPluginDefinition = {
      ...base,
      capabilities: { savedMethods: true },
      chargeSaved: async () => ({ status: "declined" as const, message: "Insufficient funds." }),
      testMethod: async (context) => {
        asked.push(context)
        return good
      }
    }
    const request: TestMethodContext<unknown> = { kind: "declines", testId: "1", environment: "sandbox", gateway: charge.gateway, config: {} }
    expect(() => definePlugin({ ...base, testMethod: simulator.testMethod! })).toThrow("testMethod needs capabilities.savedMethods")
    const hosted = hostPlugin(simulator)
    expect(hosted.testMethods).toBe(true)
    expect(await Effect.runPromise(hosted.testMethod(request))).toEqual(good)
    expect(asked).toHaveLength(1)
    expect(await Effect.runPromise(Effect.flip(hosted.testMethod({ ...request, environment: "production" })))).toMatchObject({ reason: "unsupported", call: "testMethod" })
    expect(asked).toHaveLength(1)
    expect(await Effect.runPromise(Effect.flip(hostPlugin({ ...simulator, testMethod: async () => ({ ...good, last4: "95" }) }).testMethod(request))))
      .toMatchObject({ reason: "malformed" })
    const without = hostPlugin({ ...base, capabilities: { savedMethods: true }, chargeSaved: simulator.chargeSaved! })
    expect(without.testMethods).toBe(false)
    expect(await Effect.runPromise(Effect.flip(without.testMethod(request)))).toMatchObject({ reason: "unsupported", call: "testMethod" })
  })
})

import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { definePlugin, GATEWAY_PLUGIN_API_VERSION } from "./define-plugin.js"
import type { GatewayPluginDefinition, SetupContext, SetupReturnContext } from "./gateway-plugin.js"
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
  handleReturn: async () => ({ outcome: "paid" as const, verified: true }),
  chargeSaved: async () => ({ status: "paid" as const, gatewayReference: "ch_1" })
}
const gateway = { id: 1, code: "acme", name: "Acme" }
const setup: SetupContext<unknown> = {
  setupId: "s1", currency: "USD", environment: "sandbox", gateway, config: {}, merchantName: "Shop", customerEmail: "c@example.com",
  customerName: null, currentMethod: "m_1", returnUrl: "https://kit.example/return", cancelUrl: "https://kit.example/portal"
}
const returned: SetupReturnContext<unknown> = { setupId: "s1", environment: "sandbox", gateway, config: {}, fields: {}, gatewayReference: null }
const good = { reference: "cus_1|pm_2", brand: "visa", last4: "4242", expMonth: 12, expYear: 2030 }

describe("setup-only sessions in the plugin API", () => {
  it("come whole and only with savedMethods; a plugin without them offers none", async () => {
    expect(() => definePlugin({ ...base, capabilities: { savedMethods: true }, beginSetup: async () => ({ redirect: "https://acme.example/setup" }) }))
      .toThrow("beginSetup and handleSetupReturn must both be functions")
    expect(() => definePlugin({ ...base, beginSetup: async () => ({ redirect: "https://acme.example/setup" }), handleSetupReturn: async () => ({ outcome: "pending" as const, verified: true }) }))
      .toThrow("beginSetup needs capabilities.savedMethods")
    const without = hostPlugin({ ...base, capabilities: { savedMethods: true } })
    expect(without.methodSetup).toBe(false)
    expect(await Effect.runPromise(Effect.flip(without.beginSetup(setup)))).toMatchObject({ reason: "unsupported", call: "beginSetup" })
  })

  it("passes the setup through and checks the answers: a saved outcome needs a well-formed method; a rejection is unverified", async () => {
    const plugin = (answer: unknown): GatewayPluginDefinition => ({
      ...base,
      capabilities: { savedMethods: true },
      beginSetup: async (context) => ({ redirect: `https://acme.example/setup/${context.setupId}` }),
      handleSetupReturn: async () => answer as never
    })
    const hosted = hostPlugin(plugin({ outcome: "saved", verified: true, savedMethod: good }))
    expect(hosted.methodSetup).toBe(true)
    expect(await Effect.runPromise(hosted.beginSetup(setup))).toEqual({ redirect: "https://acme.example/setup/s1" })
    expect(await Effect.runPromise(hosted.handleSetupReturn(returned))).toEqual({ outcome: "saved", verified: true, savedMethod: good })
    for (const bad of [{ outcome: "saved", verified: true }, { outcome: "saved", verified: true, savedMethod: { ...good, last4: "42" } }, { outcome: "paid", verified: true }]) {
      expect(await Effect.runPromise(Effect.flip(hostPlugin(plugin(bad)).handleSetupReturn(returned)))).toMatchObject({ reason: "malformed" })
    }
  })
})

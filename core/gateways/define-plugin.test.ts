import { describe, expect, it } from "vitest"
import { definePlugin, GATEWAY_PLUGIN_API_VERSION } from "./define-plugin.js"

describe("definePlugin", () => {
  const plugin = {
    id: "acme",
    displayName: "Acme",
    version: "1.0.0",
    apiVersion: GATEWAY_PLUGIN_API_VERSION,
    currencies: "any" as const,
    environments: ["sandbox" as const],
    parseConfig: (raw: unknown) => raw as { readonly key: string },
    beginCheckout: async () => ({ redirect: "https://acme.example/pay" }),
    handleReturn: async () => ({ outcome: "paid" as const, verified: true })
  }

  it("returns the plugin as given when the kit would host it", () => {
    expect(definePlugin(plugin)).toBe(plugin)
  })

  it("throws the kit's own refusal for one it would not", () => {
    expect(() => definePlugin({ ...plugin, apiVersion: 1 })).toThrow(
      `Gateway plugin "acme" cannot be loaded: it was written for gateway plugin API version 1, but this kit speaks version ${GATEWAY_PLUGIN_API_VERSION}.`
    )
    expect(() => definePlugin({ ...plugin, capabilities: { refunds: true } })).toThrow("capabilities.refunds is true but refund is missing")
  })

  it("takes the payouts capability with sendPayout and the destination types it pays, and refuses it half-declared", () => {
    const declared = { ...plugin, capabilities: { payouts: true }, payoutDestinationTypes: ["stripe_account"] }
    const rail = { ...declared, sendPayout: async () => ({ status: "pending" as const }) }
    expect(definePlugin(rail)).toBe(rail)
    expect(() => definePlugin(declared)).toThrow("capabilities.payouts is true but sendPayout is missing")
    expect(() => definePlugin({ ...rail, payoutDestinationTypes: [] })).toThrow(`payoutDestinationTypes must be a non-empty list of "bank_account" and/or "stripe_account"`)
    expect(() => definePlugin({ ...rail, payoutDestinationTypes: ["paypal"] })).toThrow("payoutDestinationTypes must be")
    expect(() => definePlugin({ ...plugin, payoutDestinationTypes: ["stripe_account"] })).toThrow("payoutDestinationTypes needs capabilities.payouts")
  })
})

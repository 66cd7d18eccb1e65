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
})

import { Amount } from "../../core/money/amount.js"
import type { Gateway } from "../../core/payments/gateway.js"
import type { CheckoutRequest, GatewayPlugin, GatewayReturn } from "../../core/payments/gateway-plugin.js"
import { GatewayId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"

/** The sample's currency: USD when the plugin serves it (or any), else the first it declares. */
export const sampleCurrency = (plugin: GatewayPlugin): string =>
  plugin.currencies === "any" || plugin.currencies.includes("USD") ? "USD" : plugin.currencies[0] ?? "USD"

/** Another currency the plugin serves, for the "different currency" tamper; undefined if it serves one. */
export const otherCurrency = (plugin: GatewayPlugin, currency: string): string | undefined =>
  plugin.currencies === "any" ? (currency === "EUR" ? "USD" : "EUR") : plugin.currencies.find((code) => code !== currency)

export const sampleGateway = (plugin: GatewayPlugin, currency: string, config: Readonly<Record<string, unknown>>): Gateway => ({
  id: GatewayId(1),
  plugin: plugin.id,
  name: `${plugin.displayName} conformance`,
  code: `conformance-${currency.toLowerCase()}`,
  method: "conformance",
  currency,
  type: "automatic",
  active: true,
  config,
  createdAt: Instant(0n),
  updatedAt: Instant(0n)
})

/**
 * A sandbox payment of 12.5 units. The return URL carries a query with `&`, so a plugin that
 * forgets to escape it in an HTML attribute, or drops the query, fails the form-action check.
 */
export const sampleRequest = (
  plugin: GatewayPlugin,
  trxId: string,
  overrides: Partial<Omit<CheckoutRequest, "trxId">> = {}
): CheckoutRequest => {
  const currency = overrides.currency ?? sampleCurrency(plugin)
  return {
    trxId,
    amount: Amount(1_250_000_000n),
    currency,
    displayAmount: "12.50",
    description: "Conformance order <1> & \"friends\"",
    merchantName: "Conformance & Co <test>",
    environment: "sandbox",
    gateway: sampleGateway(plugin, currency, {}),
    returnUrl: `https://kit.example/checkout/${trxId}/return?gateway=1&step=return`,
    cancelUrl: `https://kit.example/checkout/${trxId}?cancelled=1&step=cancel`,
    ...overrides
  }
}

export const returnFor = (request: CheckoutRequest, fields: Readonly<Record<string, string>>): GatewayReturn => ({
  trxId: request.trxId,
  amount: request.amount,
  currency: request.currency,
  environment: request.environment,
  gateway: request.gateway,
  fields
})

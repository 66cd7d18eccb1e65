import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { now } from "../shared/instant.js"
import { CheckoutAttempts } from "./checkout-attempts.js"
import type { Gateway } from "../gateways/gateway.js"
import { gatewayCallee } from "../gateways/gateway-config.js"
import { acceptReport, amountText } from "./gateway-reports.js"
import type { Payment } from "./payment.js"
import { firstSyncAt, syncPayment } from "./status-sync.js"

/** Where the plugin sends the customer and the gateway: built by the edge, which knows the public address. */
export interface CheckoutAddresses {
  readonly returnUrl: string
  readonly cancelUrl: string
  readonly notifyUrl: string
}

/** What the page shows, passed on so the plugin can show it the same way. */
export interface CheckoutShown {
  readonly displayAmount: string
  readonly merchantName: string
}

/**
 * The customer chose this gateway. The choice is recorded before the plugin runs, so a notification
 * racing the redirect is already heard; a plugin that can be asked is asked later if it stays silent.
 */
export const beginGatewayCheckout = (payment: Payment, gateway: Gateway, shown: CheckoutShown, addresses: CheckoutAddresses) =>
  Effect.gen(function*() {
    const { plugin, config, ref } = yield* gatewayCallee(gateway)
    const attempts = yield* CheckoutAttempts
    const at = yield* now
    yield* attempts.begin(payment.trxId, gateway.id, at, plugin.capabilities.statusSync ? firstSyncAt(at) : null)
    const start = yield* plugin.beginCheckout({
      trxId: payment.trxId,
      amount: yield* amountText(payment.amount, payment.currency),
      currency: payment.currency,
      displayAmount: shown.displayAmount,
      description: payment.description,
      merchantName: shown.merchantName,
      environment: payment.environment,
      gateway: ref,
      config,
      ...addresses,
      // A subscription's invoice: a plugin that can saves the method for its renewals.
      ...(payment.invoiceId !== null && plugin.capabilities.savedMethods
        ? { saveMethod: { usage: "off_session" as const, customerEmail: payment.customerEmail, customerName: payment.customerName } }
        : {})
    })
    if (start.gatewayReference !== undefined) yield* attempts.setReference(payment.trxId, gateway.id, start.gatewayReference)
    return start
  })

/**
 * The customer came back from the gateway. A verified return goes to the one place that decides; an
 * unverified one is never trusted: the gateway is asked instead when it can be.
 */
export const settleGatewayReturn = (payment: Payment, gateway: Gateway, fields: Readonly<Record<string, string>>) =>
  Effect.gen(function*() {
    const { plugin, config, ref } = yield* gatewayCallee(gateway)
    const attempt = yield* (yield* CheckoutAttempts).find(payment.trxId, gateway.id)
    const report = yield* plugin.handleReturn({
      trxId: payment.trxId,
      amount: yield* amountText(payment.amount, payment.currency),
      currency: payment.currency,
      environment: payment.environment,
      gateway: ref,
      config,
      fields,
      gatewayReference: Option.match(attempt, { onNone: () => null, onSome: (found) => found.gatewayReference })
    })
    const { verified, ...word } = report
    return verified
      ? yield* acceptReport(gateway, { trxId: payment.trxId, ...word }, "return")
      : yield* syncPayment(gateway, payment.trxId, "return")
  })

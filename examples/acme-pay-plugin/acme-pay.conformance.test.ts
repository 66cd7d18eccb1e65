import { gatewayPluginConformance } from "../../conformance/gateway/suite.js"
import { signNotification, signReturn } from "./acme-pay-gateway.mjs"
import acmePay from "./acme-pay.mjs"

const SECRET = "conformance-signing-secret"

/** Acme Pay's page sends the customer back signed; its server posts the same outcome, signed, to notify_url. */
gatewayPluginConformance(acmePay, {
  driver: {
    config: { pay_page_url: "https://pay.acme.example/checkout", signing_secret: SECRET },
    customer: async (checkout, outcome) => ({
      returnFields: signReturn(SECRET, { trx_id: checkout.trxId, status: outcome, amount: checkout.amount, currency: checkout.currency })
    }),
    notification: async (checkout, outcome, options) =>
      signNotification(SECRET, { trx_id: checkout.trxId, status: outcome, amount: options?.amount ?? checkout.amount, currency: checkout.currency }),
    misSign: (notification) => ({ ...notification, headers: { ...notification.headers, "x-acme-signature": "0".repeat(64) } })
  }
})

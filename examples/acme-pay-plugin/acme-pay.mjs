// Acme Pay, a made-up hosted-page gateway, as a Promise-style gateway plugin (API version 2).
// Plain JavaScript and node:crypto only: a plugin needs nothing from the kit to be loaded by it.
import { createHmac, timingSafeEqual } from "node:crypto"

const OUTCOMES = ["paid", "declined", "cancelled"]
const sign = (secret, data) => createHmac("sha256", secret).update(data).digest("hex")
// Constant-time, so a forger learns nothing from how long a wrong signature took to refuse.
const matches = (expected, given) =>
  typeof given === "string" && given.length === expected.length && timingSafeEqual(Buffer.from(expected), Buffer.from(given))
const badRequest = { ignore: true, reply: { status: 400 } }

export default {
  id: "acme-pay",
  displayName: "Acme Pay",
  version: "1.0.0",
  apiVersion: 2,
  currencies: "any",
  environments: ["sandbox", "production"],
  capabilities: { notifications: true },
  secretConfigKeys: ["signing_secret"],

  async parseConfig(raw) {
    const { pay_page_url: url, signing_secret: secret } = raw ?? {}
    if (typeof url !== "string" || !URL.canParse(url) || !/^https?:$/.test(new URL(url).protocol)) {
      throw new Error("pay_page_url must be the http(s) URL of the Acme Pay hosted page")
    }
    if (typeof secret !== "string" || secret.length < 16) throw new Error("signing_secret must be at least 16 characters")
    return { pay_page_url: url, signing_secret: secret }
  },

  async beginCheckout(ctx) {
    const page = new URL(ctx.config.pay_page_url)
    const query = { trx: ctx.trxId, amount: ctx.amount, currency: ctx.currency, return_url: ctx.returnUrl, notify_url: ctx.notifyUrl }
    for (const [name, value] of Object.entries(query)) page.searchParams.set(name, value)
    return { redirect: page.href }
  },

  // Signed over the payment's own amount and currency: a signature for another payment never fits this one.
  async handleReturn(ctx) {
    const { trx_id: trxId, status, signature } = ctx.fields
    const known = OUTCOMES.includes(status)
    const expected = sign(ctx.config.signing_secret, `${ctx.trxId}.${status}.${ctx.amount}.${ctx.currency}`)
    return { outcome: known ? status : "pending", verified: known && trxId === ctx.trxId && matches(expected, signature) }
  },

  async handleNotification(ctx) {
    let body
    try {
      body = JSON.parse(Buffer.from(ctx.rawBody).toString("utf8"))
    } catch {
      return badRequest
    }
    const { trx_id: trxId, status, amount, currency } = body ?? {}
    if (typeof trxId !== "string" || !OUTCOMES.includes(status) || typeof amount !== "string" || typeof currency !== "string") return badRequest
    const verified = matches(sign(ctx.config.signing_secret, ctx.rawBody), ctx.headers["x-acme-signature"])
    return { trxId, outcome: status, amount, currency, verified }
  }
}

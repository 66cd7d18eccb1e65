// The Acme Pay side of the conversation, for tests and demos: what the gateway would send back.
import { createHmac } from "node:crypto"

const sign = (secret, data) => createHmac("sha256", secret).update(data).digest("hex")

/**
 * The fields Acme Pay adds when it sends the customer back to `return_url` (as query or form fields).
 * `amount` is the exact decimal string the checkout was begun with ("12.50"), never a number.
 */
export const signReturn = (secret, { trx_id, status, amount, currency }) => ({
  trx_id,
  status,
  signature: sign(secret, `${trx_id}.${status}.${amount}.${currency}`)
})

/** A notification as Acme Pay posts it to `notify_url`: the exact bytes signed, and the headers to send. */
export const signNotification = (secret, body) => {
  const rawBody = Buffer.from(JSON.stringify(body), "utf8")
  return { rawBody, headers: { "content-type": "application/json", "x-acme-signature": sign(secret, rawBody) } }
}

/** The query Acme Pay's hosted page receives from `beginCheckout`'s redirect, as a plain object. */
export const readPayPageQuery = (redirect) => Object.fromEntries(new URL(redirect).searchParams)

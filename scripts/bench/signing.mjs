// The merchant API's request signing and the initiate-payment body, shared by the bench's probes
// (routes.mjs), its load generator (load-run.mjs, a fresh signature per request) and the twin's test.
import { createHmac } from "node:crypto"

export const INITIATE = "/api/v1/initiate-payment"
export const SITE_INFO = "/api/v1/site-info"

/**
 * Headers of a signed sandbox request: HMAC-SHA256 with the client secret over
 * `<timestamp>.<METHOD>.<path>.<body>` (an empty body still leaves the separating dot).
 * @param {{ merchant_key: string, api_key: string, client_secret: string }} credentials
 */
export const signedHeaders = (credentials, method, path, body = "") => {
  const timestamp = String(Math.floor(Date.now() / 1000))
  const signature = createHmac("sha256", credentials.client_secret).update(`${timestamp}.${method}.${path}.${body}`).digest("hex")
  return {
    "X-Environment": "sandbox",
    "X-Merchant-Key": credentials.merchant_key,
    "X-API-Key": credentials.api_key,
    "X-Timestamp": timestamp,
    "X-Signature": `sha256=${signature}`,
    ...(body === "" ? {} : { "Content-Type": "application/json" })
  }
}

/** A 100 USD payment under `refTrx` (unique per merchant); the redirects are never followed here. */
export const initiateBody = (refTrx) => JSON.stringify({
  payment_amount: 100,
  currency_code: "USD",
  ref_trx: refTrx,
  success_redirect: "https://merchant.example/ok",
  cancel_redirect: "https://merchant.example/cancel",
  ipn_url: "https://merchant.example/ipn"
})

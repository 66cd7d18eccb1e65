// The three signed routes the hand-written twin and the kit are both measured on, and the merchant
// each side is loaded as. Every route is probed once before its load, so a signing or setup mistake
// fails loudly here instead of as a run of 401s.
import { randomBytes } from "node:crypto"
import { INITIATE, initiateBody, signedHeaders, SITE_INFO } from "./signing.mjs"

export const ROUTES = /** @type {const} */ (["site-info", "verify-payment", "initiate-payment"])

/** A 2xx answer's JSON, or an error naming `what`, the status and the body. */
export const expectOk = async (what, response) => {
  const text = await response.text()
  if (response.status < 200 || response.status > 299) throw new Error(`${what} answered ${response.status}: ${text}`)
  return JSON.parse(text)
}

const signedFetch = (base, credentials, method, path, body = "") =>
  fetch(base + path, { method, headers: signedHeaders(credentials, method, path, body), ...(body === "" ? {} : { body }) })

const uniqueRef = (what) => `bench-${what}-${Date.now().toString(36)}-${randomBytes(4).toString("hex")}`

/**
 * The load for `route` on `base` (the kinds of load-run.mjs), after one probe that must answer 2xx.
 * verify-payment loads one payment made here, as a merchant polling its latest order would.
 */
export const prepareRoute = async (route, base, credentials) => {
  if (route === "site-info") {
    await expectOk("signed site-info probe", await signedFetch(base, credentials, "GET", SITE_INFO))
    return { kind: "signed-get", path: SITE_INFO, credentials }
  }
  if (route === "verify-payment") {
    const created = await expectOk("signed initiate-payment (for verify)",
      await signedFetch(base, credentials, "POST", INITIATE, initiateBody(uniqueRef("verify"))))
    const path = `/api/v1/verify-payment/${created.info.trx_id}`
    await expectOk("signed verify-payment probe", await signedFetch(base, credentials, "GET", path))
    return { kind: "signed-get", path, credentials }
  }
  await expectOk("signed initiate-payment probe", await signedFetch(base, credentials, "POST", INITIATE, initiateBody(uniqueRef("probe"))))
  return { kind: "initiate", credentials }
}

/** A fresh approved kit merchant with USD, a sandbox USD wallet and sandbox credentials, through the admin API. */
export const createKitMerchant = async (base, adminToken) => {
  const admin = (method, path, body) =>
    fetch(`${base}/admin/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${adminToken}`, "content-type": "application/json" },
      body: JSON.stringify(body)
    }).then((response) => expectOk(`admin ${method} ${path}`, response))
  const merchant = await admin("POST", "/merchants", { name: "Bench merchant", status: "approved" })
  await admin("PUT", `/merchants/${merchant.id}/currencies`, { currency_codes: ["USD"] })
  await admin("POST", `/merchants/${merchant.id}/wallets`, { currency_code: "USD", environment: "sandbox" })
  return admin("POST", `/merchants/${merchant.id}/credentials`, { environment: "sandbox" })
}

/** Sandbox credentials for the twin's one merchant, shaped like the kit's. */
export const twinCredentials = () => ({
  merchant_key: `test_mk_${randomBytes(12).toString("base64url")}`,
  api_key: `test_ak_${randomBytes(32).toString("base64url")}`,
  client_secret: `cs_${randomBytes(32).toString("base64url")}`
})

/** The demo merchant of a started host: its credentials, signed calls as it, and the checks a delivered completion must pass. */
import { createHmac } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { expect } from "vitest"
import { currentReceiverUrl, type Host, type Received } from "./child-hosts.js"
export interface Demo {
  readonly merchant_id: number
  readonly merchant_key: string
  readonly api_key: string
  readonly client_secret: string
  readonly webhook_secret: string
}

export const readDemo = (dataDir: string): Demo => JSON.parse(readFileSync(join(dataDir, "demo-credentials.json"), "utf8")) as Demo
export const readAdminToken = (dataDir: string): string => readFileSync(join(dataDir, "admin.token"), "utf8").trim()

export interface Answer {
  readonly status: number
  readonly text: string
  readonly json: any
}

export const answer = async (response: Response): Promise<Answer> => {
  const text = await response.text()
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    json = undefined
  }
  return { status: response.status, text, json }
}

export interface SignedAnswer extends Answer {
  readonly headers: Headers
  /** The X-Signature sent: a test may look for it where it must never appear (logs). */
  readonly signature: string
}

/**
 * A sandbox merchant API call signed as spec 5 says: HMAC-SHA256 with the demo's client secret of
 * `<ts>.<METHOD>.<path>.<raw body>`. `headers` adds to (or overrides) the signed request's headers.
 */
export const signedCall = async (
  baseUrl: string,
  demo: Pick<Demo, "merchant_key" | "api_key" | "client_secret">,
  method: string,
  path: string,
  options: { readonly body?: unknown; readonly headers?: Readonly<Record<string, string>> } = {}
): Promise<SignedAnswer> => {
  const raw = options.body === undefined ? "" : typeof options.body === "string" ? options.body : JSON.stringify(options.body)
  const timestamp = String(Math.floor(Date.now() / 1000))
  const signature = `sha256=${createHmac("sha256", demo.client_secret).update(`${timestamp}.${method}.${path}.${raw}`).digest("hex")}`
  const response = await fetch(baseUrl + path, {
    method,
    headers: {
      "content-type": "application/json",
      "x-environment": "sandbox",
      "x-merchant-key": demo.merchant_key,
      "x-api-key": demo.api_key,
      "x-timestamp": timestamp,
      "x-signature": signature,
      ...options.headers
    },
    body: raw === "" ? null : raw,
    signal: AbortSignal.timeout(15_000)
  })
  return { ...(await answer(response)), headers: response.headers, signature }
}

/** A signed call that must answer 200: its JSON, or an error naming the call and its answer. */
export const signedOk = async <T>(baseUrl: string, demo: Pick<Demo, "merchant_key" | "api_key" | "client_secret">, method: "GET" | "POST", path: string, body = ""): Promise<T> => {
  const answered = await signedCall(baseUrl, demo, method, path, body === "" ? {} : { body })
  if (answered.status !== 200) throw new Error(`${method} ${path} answered ${answered.status}: ${answered.text}`)
  return answered.json as T
}

export const merchantCall = (host: Pick<Host, "url">, demo: Demo, method: "GET" | "POST", path: string, body?: unknown): Promise<Answer> =>
  signedCall(host.url, demo, method, path, body === undefined ? {} : { body })

/** Initiates a sandbox payment whose IPN goes to the receiver, pays it, and checks it verifies as success. */
export const completedPayment = async (host: Host, demo: Demo, refTrx: string): Promise<string> => {
  const initiated = await merchantCall(host, demo, "POST", "/api/v1/initiate-payment", {
    payment_amount: 100,
    currency_code: "USD",
    ref_trx: refTrx,
    success_redirect: "https://example.com/ok",
    cancel_redirect: "https://example.com/c",
    ipn_url: `${currentReceiverUrl()}/ipn`
  })
  expect(initiated.status, initiated.text).toBe(200)
  const trxId: string = initiated.json.info.trx_id
  expect(trxId).toMatch(/\S/)

  const paid = await merchantCall(host, demo, "POST", `/api/v1/sandbox/payments/${trxId}/simulate`, { outcome: "success" })
  expect(paid.status, paid.text).toBe(200)

  const verified = await merchantCall(host, demo, "GET", `/api/v1/verify-payment/${trxId}`)
  expect(verified.status, verified.text).toBe(200)
  expect(verified.json.status).toBe("success")
  expect(verified.json.trx_id).toBe(trxId)
  return trxId
}

export interface DeliveryJson {
  readonly id: string
  readonly event: string
  readonly url: string
  readonly status: string
  readonly attempts: number
  readonly last_status_code: number | null
  readonly next_attempt_at: string | null
}

export const adminGet = async (host: Host, token: string, path: string): Promise<Answer> =>
  answer(await fetch(`${host.url}/admin/v1${path}`, { headers: { authorization: `Bearer ${token}` }, signal: AbortSignal.timeout(15_000) }))

/** The merchant's one delivery, as the admin log shows it. */
export const onlyDelivery = async (host: Host, token: string, merchantId: number): Promise<DeliveryJson> => {
  const listed = await adminGet(host, token, `/webhook-deliveries?merchant_id=${merchantId}`)
  expect(listed.status, listed.text).toBe(200)
  const deliveries = listed.json.data as ReadonlyArray<DeliveryJson>
  expect(deliveries, listed.text).toHaveLength(1)
  return deliveries[0]!
}

export const hmacHex = (secret: string, body: Buffer) => createHmac("sha256", secret).update(body).digest("hex")

/** What every delivery of the payment's event must look like. */
export const expectSignedCompletion = (request: Received, demo: Demo, trxId: string) => {
  expect(request.method).toBe("POST")
  expect(request.path).toBe("/ipn")
  expect(request.headers["content-type"]).toMatch(/^application\/json(;|$)/)
  expect(request.headers["x-environment"]).toBe("sandbox")
  expect(request.headers["x-event-id"]).toMatch(/\S/)
  // Exactly the bare lower-case hex HMAC of the bytes received, with the demo's webhook secret.
  expect(request.headers["x-signature"]).toBe(hmacHex(demo.webhook_secret, request.rawBody))
  const body = JSON.parse(request.text)
  expect(body.event).toBe("payment.completed")
  expect(body.status).toBe("completed")
  expect(body.data.trx_id).toBe(trxId)
  expect(body.data.amount).toBe(100)
  expect(request.text).toContain('"amount":100,')
}

// ---------------------------------------------------------------------------------------------

/** What the tracing tests share: a merchant's signed call, one onboarded merchant, a loopback receiver. */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http"
import { signRequest } from "../../../core/signing/request-signature.js"
import type { IssuedCredentials, MerchantPayments } from "../../../hosts/embedding/index.js"

export const listen = (server: Server) =>
  new Promise<string>((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}`)))

/** A caller's trace context, as a platform in front of the kit would send it. */
export const CALLER_TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
export const CALLER_SPAN_ID = "00f067aa0ba902b7"
export const CALLER_TRACEPARENT = `00-${CALLER_TRACE_ID}-${CALLER_SPAN_ID}-01`

export interface Credentials {
  readonly environment: string
  readonly merchant_key: string
  readonly api_key: string
  readonly client_secret: string
}

/** A merchant's signed call; `headers` add to the signed ones (a caller's traceparent). */
export const signedCall = async (
  origin: string,
  credentials: Credentials,
  method: string,
  path: string,
  body?: unknown,
  headers: Readonly<Record<string, string>> = {}
) => {
  const raw = body === undefined ? "" : JSON.stringify(body)
  const timestamp = String(Math.floor(Date.now() / 1000))
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: {
      ...headers,
      "content-type": "application/json",
      "x-environment": credentials.environment,
      "x-merchant-key": credentials.merchant_key,
      "x-api-key": credentials.api_key,
      "x-timestamp": timestamp,
      "x-signature": signRequest(credentials.client_secret, { timestamp, method, pathWithQuery: path, rawBody: raw })
    },
    ...(raw === "" ? {} : { body: raw })
  })
  return { status: response.status, json: await response.json() as Record<string, any> }
}

/** An approved merchant with a USD sandbox wallet, a sandbox gateway and sandbox keys, through `payments.admin`. */
export const onboard = async (payments: MerchantPayments): Promise<IssuedCredentials> => {
  const merchant = await payments.admin.merchants.create({ name: "Traced Shop", status: "approved", fee_percent: "2.5" })
  await payments.admin.currencies.replace(merchant.id, ["USD"])
  await payments.admin.wallets.create(merchant.id, { currency_code: "USD", environment: "sandbox" })
  await payments.admin.gateways.create({ plugin: "sandbox", name: "Test card", currency_code: "USD", method: `card${merchant.id}` })
  return payments.admin.credentials.issue(merchant.id, "sandbox")
}

/** Loopback webhook receiver: the headers of every delivery it took. */
export const webhookReceiver = async () => {
  const deliveries: Array<IncomingHttpHeaders> = []
  const server = createServer((request, response) => {
    deliveries.push(request.headers)
    request.resume().on("end", () => response.writeHead(200).end("ok"))
  })
  const url = await listen(server)
  return { url, deliveries, close: () => new Promise<void>((resolve) => server.close(() => resolve())) }
}

export const waitFor = async <A>(what: string, check: () => A | undefined, timeoutMs = 10_000): Promise<A> => {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const value = check()
    if (value !== undefined) return value
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`)
    await new Promise((resolve) => setTimeout(resolve, 25))
  }
}

export const initiateBody = (ref: string, ipnUrl: string) => ({
  payment_amount: "12.50",
  currency_code: "USD",
  ref_trx: ref,
  success_redirect: "https://shop.example/ok",
  cancel_redirect: "https://shop.example/cancel",
  ipn_url: ipnUrl
})

import type { DemoCredentials } from "./demo-merchant.js"
import type { HostSecrets } from "../embedding/local-secrets.js"

/** The signing lines every example shares: `SIG` for a method, path and body (bash, openssl). */
const signing = (demo: DemoCredentials, method: string, path: string, body: string) => [
  `SECRET='${demo.client_secret}'; TS=$(date +%s)`,
  `SIG=$(printf '%s' "$TS.${method}.${path}.${body}" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.* //')`
]

const headers = (demo: DemoCredentials) =>
  `-H 'Accept: application/json' -H 'X-Environment: sandbox' -H 'X-Merchant-Key: ${demo.merchant_key}' -H 'X-API-Key: ${demo.api_key}' -H "X-Timestamp: $TS" -H "X-Signature: sha256=$SIG"`

/** Copy-paste commands against the demo merchant: each a bash snippet using curl and openssl. */
export const demoCommands = (baseUrl: string, demo: DemoCredentials) => ({
  siteInfo: [...signing(demo, "GET", "/api/v1/site-info", ""), `curl -s ${baseUrl}/api/v1/site-info ${headers(demo)}`].join("\n"),
  initiate: [
    // The reference is made unique per run; the body is signed byte for byte as sent.
    `BODY='{"payment_amount":100,"currency_code":"USD","ref_trx":"demo-'$(date +%s%N)'","success_redirect":"https://example.com/ok","cancel_redirect":"https://example.com/cancel","ipn_url":"https://example.com/ipn","description":"Demo order"}'`,
    ...signing(demo, "POST", "/api/v1/initiate-payment", "$BODY"),
    `curl -s ${baseUrl}/api/v1/initiate-payment -H 'Content-Type: application/json' ${headers(demo)} -d "$BODY"`
  ].join("\n"),
  verify: (trxIdVariable = "$TRX") =>
    [...signing(demo, "GET", `/api/v1/verify-payment/${trxIdVariable}`, ""), `curl -s ${baseUrl}/api/v1/verify-payment/${trxIdVariable} ${headers(demo)}`].join("\n")
})

const indent = (text: string) => text.split("\n").map((line) => `  ${line}`).join("\n")

/** How to reach the admin API; the token itself only when this start generated it, so it is seen once. */
const adminLines = (baseUrl: string, secrets: HostSecrets): ReadonlyArray<string> => {
  const api = `admin API: ${baseUrl}/admin/v1`
  if (secrets.adminTokenSource === "ADMIN_TOKEN") return [`${api}  (Authorization: Bearer <ADMIN_TOKEN>)`]
  if (secrets.adminTokenSource === "file") return [`${api}  (Authorization: Bearer <the token in ${secrets.adminTokenFile}>)`]
  return [
    `${api}  (Authorization: Bearer ${secrets.adminToken})`,
    secrets.adminTokenFile === undefined
      ? "  the admin token was generated for this run only: set ADMIN_TOKEN to keep one"
      : `  the admin token was generated now and kept in ${secrets.adminTokenFile}; later starts do not print it`
  ]
}

/** Single-quoted for a POSIX shell: the value exactly, whatever it holds. */
const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`

/**
 * `export` lines for the demo credentials, under the names the README's examples read, with where the
 * host answers (whatever PORT and BASE_PATH it was given) and the environment the credentials are for,
 * so a receiver that checks `X-Environment` takes the demo's sandbox events.
 */
export const exportLines = (baseUrl: string, demo: DemoCredentials): ReadonlyArray<string> => [
  `export PAYMENTS_URL=${shellQuote(baseUrl)}`,
  `export PAYMENTS_ENVIRONMENT=${shellQuote(demo.environment)}`,
  `export MERCHANT_KEY=${shellQuote(demo.merchant_key)}`,
  `export API_KEY=${shellQuote(demo.api_key)}`,
  `export CLIENT_SECRET=${shellQuote(demo.client_secret)}`,
  `export WEBHOOK_SECRET=${shellQuote(demo.webhook_secret)}`
]

/** What `npm start` prints: where it listens, how to administer it, and requests to try. */
export const banner = (baseUrl: string, secrets: HostSecrets, demo: DemoCredentials | undefined): string => {
  const lines = [
    `merchant-payments listening on ${baseUrl}`,
    ...adminLines(baseUrl, secrets),
    `merchant dashboard: ${baseUrl}/dashboard  (its users: POST ${baseUrl}/admin/v1/merchants/{id}/users {"email", "role"})`
  ]
  if (demo === undefined) return lines.join("\n")
  const commands = demoCommands(baseUrl, demo)
  return [
    ...lines,
    "",
    "demo sandbox merchant:",
    // Its id is what the admin API's merchant routes take: its dashboard users, for one.
    `  merchant id:    ${demo.merchant_id}  (dashboard users: POST ${baseUrl}/admin/v1/merchants/${demo.merchant_id}/users)`,
    `  X-Merchant-Key: ${demo.merchant_key}`,
    `  X-API-Key:      ${demo.api_key}`,
    `  client secret:  ${demo.client_secret}`,
    "                  signs your requests; verifies the refund events (payment.refunded) sent to you",
    `  webhook secret: ${demo.webhook_secret}`,
    "                  verifies the payment events (IPNs) sent to your ipn_url",
    "",
    "to use them from this shell (the README's examples read these variables):",
    indent(exportLines(baseUrl, demo).join("\n")),
    "",
    "try a signed request (bash, curl, openssl):",
    indent(commands.siteInfo),
    "",
    "create a payment, then open its payment_url in a browser and pay with the sandbox gateway:",
    indent(commands.initiate),
    "",
    "verify it (put the info.trx_id from the answer in TRX):",
    indent(`TRX=SANDBOX_...\n${commands.verify()}`)
  ].join("\n")
}

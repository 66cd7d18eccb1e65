import type { DemoCredentials } from "./demo-merchant.js"
import type { HostSecrets } from "./local-secrets.js"

/** What `npm start` prints: where it listens, how to administer it, and a request to try. */
export const banner = (baseUrl: string, secrets: HostSecrets, demo: DemoCredentials | undefined): string => {
  const lines = [
    `merchant-payments listening on ${baseUrl}`,
    `admin API: ${baseUrl}/admin/v1  (Authorization: Bearer ${secrets.adminToken})` +
      (secrets.adminTokenSource === "generated" ? "  [generated for this run: set ADMIN_TOKEN to keep one]" : "")
  ]
  if (demo === undefined) return lines.join("\n")
  return [
    ...lines,
    "",
    "demo sandbox merchant:",
    `  X-Merchant-Key: ${demo.merchant_key}`,
    `  X-API-Key:      ${demo.api_key}`,
    `  client secret:  ${demo.client_secret}`,
    `  webhook secret: ${demo.webhook_secret}`,
    "",
    "try a signed request (bash, curl, openssl):",
    `  SECRET='${demo.client_secret}'; TS=$(date +%s)`,
    `  SIG=$(printf '%s' "$TS.GET./api/v1/site-info." | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.* //')`,
    `  curl -s ${baseUrl}/api/v1/site-info -H 'Accept: application/json' -H 'X-Environment: sandbox' \\`,
    `    -H 'X-Merchant-Key: ${demo.merchant_key}' -H 'X-API-Key: ${demo.api_key}' \\`,
    `    -H "X-Timestamp: $TS" -H "X-Signature: sha256=$SIG"`
  ].join("\n")
}

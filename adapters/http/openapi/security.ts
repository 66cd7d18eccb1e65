import type { Security } from "./operation.js"

const header = (name: string, description: string) => ({ type: "apiKey", in: "header", name, description })

/** Spec 5 as OpenAPI security schemes: five headers that go together, and the operator's token. */
export const securitySchemes = {
  Environment: header("X-Environment", "`sandbox` or `production`: selects the credential set. The subscription endpoints default to `production`."),
  MerchantKey: header("X-Merchant-Key", "The environment's Merchant Key (`test_` prefix in sandbox)."),
  ApiKey: header("X-API-Key", "The environment's API Key (`test_` prefix in sandbox)."),
  Timestamp: header("X-Timestamp", "Unix time in seconds; refused outside the tolerance (300 s by default)."),
  Signature: header(
    "X-Signature",
    [
      "`sha256=` followed by the hex HMAC-SHA256, keyed with the environment's client secret, of",
      "`<X-Timestamp>.<METHOD>.<path with query>.<raw body>`: four parts joined by dots, the method in upper case,",
      "the path as sent (under any base path) with its query string, the exact body bytes (empty for GET, so the",
      "payload then ends with a dot). A bare hex value is accepted too; the comparison is constant-time."
    ].join(" ")
  ),
  AdminBearer: { type: "http", scheme: "bearer", description: "The operator's ADMIN_TOKEN. Merchant credentials never open the admin API." },
  DashboardSession: {
    type: "apiKey",
    in: "cookie",
    name: "mp_dashboard",
    description: "A merchant user's session, set by signing in at `/dashboard/login` (or the platform's own sign-in when it supplies `dashboard.authenticate`). Every form also carries its `csrf_token`."
  }
} as const

const signed = { MerchantKey: [], ApiKey: [], Timestamp: [], Signature: [] }

/** The requirement objects of an operation: alternatives, any one of which is enough. */
export const securityRequirements = (security: Security): ReadonlyArray<Record<string, ReadonlyArray<string>>> => {
  switch (security) {
    case "merchant":
      return [{ Environment: [], ...signed }]
    case "merchant-production-default":
      return [{ Environment: [], ...signed }, signed]
    case "admin":
      return [{ AdminBearer: [] }]
    case "dashboard":
      return [{ DashboardSession: [] }]
    case "none":
      return []
  }
}

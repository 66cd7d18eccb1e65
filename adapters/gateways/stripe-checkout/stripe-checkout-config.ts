/** A Stripe Checkout gateway record's settings, after `parseStripeCheckoutConfig`. */
export interface StripeCheckoutConfig {
  /** A secret (`sk_test_`/`sk_live_`) or restricted (`rk_test_`/`rk_live_`) API key. */
  readonly secret_key: string
  /** The signing secret of the webhook endpoint pointed at the kit's notify URL. */
  readonly webhook_secret: string
  /** Where the Stripe API is (stripe-mock, a test double); Stripe's own when absent. */
  readonly api_base?: string
  /** Offered on the Checkout page; Stripe's dashboard settings decide when absent. */
  readonly payment_method_types?: ReadonlyArray<string>
}

const KNOWN_KEYS = new Set(["secret_key", "webhook_secret", "api_base", "payment_method_types"])
const SECRET_KEY = /^(sk|rk)_(test|live)_[A-Za-z0-9_]+$/
const WEBHOOK_SECRET = /^whsec_[A-Za-z0-9+/=_]+$/
const PAYMENT_METHOD_TYPE = /^[a-z][a-z0-9_]{0,63}$/

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null && !Array.isArray(value)

/** Whether a key is for Stripe's test mode: sandbox payments must use one, production ones must not. */
export const isTestModeKey = (secretKey: string): boolean => /^(sk|rk)_test_/.test(secretKey)

/**
 * The messages name fields and expected shapes only: the administrator pasting a live key in the
 * wrong field must not see it echoed back in a message, a log line or an API error.
 */
const secretField = (raw: Record<string, unknown>, field: string, pattern: RegExp, shape: string): string => {
  const value = raw[field]
  if (value === undefined || value === null) throw new Error(`${field} is required`)
  if (typeof value !== "string" || value.trim() === "") throw new Error(`${field} must be a non-empty string`)
  if (!pattern.test(value)) throw new Error(`${field} must look like ${shape}`)
  return value
}

const apiBaseOf = (value: unknown): string | undefined => {
  if (value === undefined) return undefined
  if (typeof value !== "string" || !URL.canParse(value)) throw new Error("api_base must be an absolute http(s) URL such as https://api.stripe.com")
  const url = new URL(value)
  if (url.protocol !== "https:" && url.protocol !== "http:") throw new Error("api_base must be an http(s) URL")
  // stripe-node takes a host, port and protocol only: anything else in the URL would be silently dropped.
  if (url.username !== "" || url.password !== "" || url.pathname !== "/" || url.search !== "" || url.hash !== "") {
    throw new Error("api_base must be a bare origin such as http://127.0.0.1:12111, without path, query or credentials")
  }
  return url.origin
}

const paymentMethodTypesOf = (value: unknown): ReadonlyArray<string> | undefined => {
  if (value === undefined) return undefined
  if (!Array.isArray(value) || value.length === 0 || !value.every((type) => typeof type === "string" && PAYMENT_METHOD_TYPE.test(type))) {
    throw new Error("payment_method_types must be a non-empty list of Stripe payment method types such as [\"card\"]")
  }
  return [...new Set(value as ReadonlyArray<string>)]
}

/**
 * A pasted key can end up as a field name: only names shaped like config fields (lower-case words)
 * are quoted; Stripe's keys are mixed-case or prefixed, so they are described instead.
 */
const fieldLabel = (name: string): string =>
  /^(sk|rk|pk|whsec)_/.test(name) ? "(a field named like a Stripe key)"
    : /^[a-z][a-z0-9_]{0,39}$/.test(name) ? `"${name}"`
    : "(a field with an unexpected name)"

/** A gateway record's raw config checked field by field; throws with the first problem, naming the field. */
export const parseStripeCheckoutConfig = (raw: unknown): StripeCheckoutConfig => {
  if (!isRecord(raw)) throw new Error("the Stripe Checkout config must be an object with secret_key and webhook_secret")
  const unknown = Object.keys(raw).filter((key) => !KNOWN_KEYS.has(key))
  if (unknown.length > 0) {
    throw new Error(`unknown config field(s): ${unknown.map(fieldLabel).join(", ")}; expected secret_key, webhook_secret, api_base, payment_method_types`)
  }
  const secretKey = secretField(raw, "secret_key", SECRET_KEY, "sk_test_..., sk_live_..., rk_test_... or rk_live_...")
  const webhookSecret = secretField(raw, "webhook_secret", WEBHOOK_SECRET, "whsec_...")
  const apiBase = apiBaseOf(raw["api_base"])
  const paymentMethodTypes = paymentMethodTypesOf(raw["payment_method_types"])
  return {
    secret_key: secretKey,
    webhook_secret: webhookSecret,
    ...(apiBase !== undefined ? { api_base: apiBase } : {}),
    ...(paymentMethodTypes !== undefined ? { payment_method_types: paymentMethodTypes } : {})
  }
}

import { createHash } from "node:crypto"
import { SANDBOX_KEY_PREFIX, type Environment } from "../shared/environment.js"
import { BASE62_ALPHABET, randomString } from "./random-text.js"

/**
 * Merchant credentials.
 *
 * Formats (base62 = `0-9A-Za-z`):
 *   merchantKey   sandbox `test_mk_<24 base62>`, production `mk_<24 base62>` (~143 random bits)
 *   apiKey        sandbox `test_ak_<43 base62>`, production `ak_<43 base62>` (~256 random bits)
 *   clientSecret  `cs_<43 base62>` in both environments (~256 random bits)
 *   webhookSecret `whsec_<44 base62>` in both environments (~262 random bits)
 *
 * Only merchant keys and API keys carry the environment prefix, as the spec states: they identify
 * the caller, and the prefix is how a request is routed to its environment. The secrets are only
 * ever used as HMAC keys (as their full UTF-8 string), so their readable labels exist to make a
 * leaked secret recognisable in logs, not to carry meaning. Base62 rather than hex keeps integrators
 * from hex-decoding the secret and keying the HMAC with the wrong bytes. The webhook secret is also a
 * Standard Webhooks secret (`whsec_` and base64, base62 being a subset): 44 characters, a whole number
 * of base64 quanta, so the strict decoders of the Python and Go libraries take it as well (43, as
 * issued before, is refused there for want of padding).
 */

export interface Credentials {
  /** Public identifier of the merchant in this environment. */
  readonly merchantKey: string
  /** Bearer key for API calls; store only `hashApiKey(apiKey)`. */
  readonly apiKey: string
  /** HMAC key for request signatures (`X-Signature`). */
  readonly clientSecret: string
  /** HMAC key for webhook signatures. */
  readonly webhookSecret: string
}

const MERCHANT_KEY_CHARS = 24
// 43 base62 characters carry 43 * log2(62) ≈ 256.03 bits: the smallest length reaching 256.
const SECRET_CHARS = 43
const WEBHOOK_SECRET_CHARS = 44

const environmentPrefix = (environment: Environment): string =>
  environment === "sandbox" ? SANDBOX_KEY_PREFIX : ""

const random = (length: number): string => randomString(BASE62_ALPHABET, length)

/** Fresh, independent credentials for one merchant in one environment. */
export const generateCredentials = (environment: Environment): Credentials => {
  const prefix = environmentPrefix(environment)
  return {
    merchantKey: `${prefix}mk_${random(MERCHANT_KEY_CHARS)}`,
    apiKey: `${prefix}ak_${random(SECRET_CHARS)}`,
    clientSecret: `cs_${random(SECRET_CHARS)}`,
    webhookSecret: `whsec_${random(WEBHOOK_SECRET_CHARS)}`
  }
}

/**
 * True when a merchant key or API key belongs to `environment`: sandbox values start with `test_`,
 * production values are non-empty and do not. Not meaningful for secrets, which carry no prefix.
 */
export const credentialMatchesEnvironment = (value: string, environment: Environment): boolean =>
  environment === "sandbox"
    ? value.startsWith(SANDBOX_KEY_PREFIX) && value.length > SANDBOX_KEY_PREFIX.length
    : value.length > 0 && !value.startsWith(SANDBOX_KEY_PREFIX)

/**
 * Lower-case hex SHA-256 of the API key's UTF-8 bytes. API keys are stored only as this hash and
 * looked up by it; a plain hash suffices because the keys carry ~256 random bits, so there is
 * nothing to brute-force and no salt is needed (a salt would also make lookup by hash impossible).
 */
export const hashApiKey = (apiKey: string): string => createHash("sha256").update(apiKey, "utf8").digest("hex")

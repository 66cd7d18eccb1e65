import { constantTimeEqualBytes, hmacSha256, hmacSha256Hex } from "./hmac.js"
import { parseSha256Signature } from "./signature-header.js"

/**
 * API request signatures (`X-Signature`) and their timestamp window (`X-Timestamp`).
 *
 * The signed payload is `<timestamp>.<METHOD>.<path_with_query>.<raw_body>`, keyed with the
 * environment's client secret. The body is signed as the exact bytes received, never re-encoded
 * JSON, so any byte-level change (including whitespace) breaks the signature.
 */

export interface SignatureParts {
  /** The `X-Timestamp` header exactly as sent (Unix seconds as decimal digits). */
  readonly timestamp: string
  /** The HTTP method; upper-cased here so `post` and `POST` sign the same payload. */
  readonly method: string
  /** The request target as sent: path plus query string, e.g. `/api/v1/payments?x=1`. */
  readonly pathWithQuery: string
  /** The exact body bytes; a string is taken as UTF-8. Empty for GET, so the payload ends with a dot. */
  readonly rawBody: Uint8Array | string
}

const utf8 = new TextEncoder()

/**
 * The exact bytes that are signed. Built as bytes rather than as a string so a body that is not
 * valid UTF-8 is signed as received instead of being mangled by a decode/encode round trip.
 */
export const signaturePayload = (parts: SignatureParts): Uint8Array =>
  signaturePayloadAsWritten({ ...parts, method: parts.method.toUpperCase() })

/**
 * The same bytes with the method exactly as given: only for diagnosing a client that signed a
 * lower-case method, never for verifying.
 */
export const signaturePayloadAsWritten = (parts: SignatureParts): Uint8Array => {
  const head = utf8.encode(`${parts.timestamp}.${parts.method}.${parts.pathWithQuery}.`)
  const body = typeof parts.rawBody === "string" ? utf8.encode(parts.rawBody) : parts.rawBody
  const payload = new Uint8Array(head.length + body.length)
  payload.set(head, 0)
  payload.set(body, head.length)
  return payload
}

/** The `X-Signature` value for a request: `sha256=` followed by lower-case hex. */
export const signRequest = (secret: string | Uint8Array, parts: SignatureParts): string =>
  `sha256=${hmacSha256Hex(secret, signaturePayload(parts))}`

/**
 * True when `header` is a valid signature of the request: `sha256=<hex>` or bare hex, any hex case.
 * Missing, empty, truncated or non-hex values are false; never throws.
 */
export const verifyRequestSignature = (
  secret: string | Uint8Array,
  parts: SignatureParts,
  header: string | undefined
): boolean => verifyRequestSignatureOverTargets(secret, parts, [parts.pathWithQuery], header)

/**
 * True when `header` signs the request over any one of `targets` (path plus query). A kit mounted
 * under a base path accepts the full path the client called and the path relative to the base path,
 * since the spec writes every path relative to `{base_url}` and real clients sign that. Every target
 * is computed and compared in constant time, without stopping at a match, so the time taken does not
 * tell which form (if any) matched.
 */
export const verifyRequestSignatureOverTargets = (
  secret: string | Uint8Array,
  parts: Omit<SignatureParts, "pathWithQuery">,
  targets: ReadonlyArray<string>,
  header: string | undefined
): boolean => {
  const provided = parseSha256Signature(header)
  if (provided === undefined) return false
  let matched = false
  for (const pathWithQuery of targets) {
    const expected = hmacSha256(secret, signaturePayload({ ...parts, pathWithQuery }))
    matched = constantTimeEqualBytes(provided, expected) || matched
  }
  return matched
}

/** The window the service accepts around its own clock, in seconds, unless configured otherwise. */
export const DEFAULT_TIMESTAMP_TOLERANCE_SECONDS = 300

export type TimestampCheck =
  | { readonly _tag: "Valid"; readonly timestamp: number }
  | { readonly _tag: "Missing" }
  | { readonly _tag: "Malformed" }
  /** `skewSeconds` is now minus the timestamp: positive for old requests, negative for future ones. */
  | { readonly _tag: "Stale"; readonly skewSeconds: number }

// Plain decimal digits only: no sign, decimal point, exponent or whitespace, which Number() would
// all accept. Twelve digits reaches far past any real clock while staying an exact integer.
const TIMESTAMP = /^[0-9]{1,12}$/

/**
 * Checks an `X-Timestamp` header against the current time.
 * The window is symmetric: a timestamp more than `toleranceSeconds` in the future is as stale as one
 * that far in the past, so a captured request cannot be replayed later by pre-dating it. A skew of
 * exactly `toleranceSeconds` is still accepted. An empty header is Malformed (present but not a
 * number); only an absent one is Missing.
 */
export const checkTimestamp = (input: {
  readonly header: string | undefined
  readonly nowSeconds: number
  readonly toleranceSeconds: number
}): TimestampCheck => {
  if (input.header === undefined) return { _tag: "Missing" }
  if (!TIMESTAMP.test(input.header)) return { _tag: "Malformed" }
  const timestamp = Number(input.header)
  const skewSeconds = input.nowSeconds - timestamp
  return Math.abs(skewSeconds) <= input.toleranceSeconds
    ? { _tag: "Valid", timestamp }
    : { _tag: "Stale", skewSeconds }
}

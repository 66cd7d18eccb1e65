import * as Schema from "effect/Schema"
import type { Environment } from "../shared/environment.js"
import { constantTimeEqualBytes, hmacSha256, sha256Hex } from "./hmac.js"
import { checkTimestamp, signaturePayload, signaturePayloadAsWritten } from "./request-signature.js"
import { type Alternative, alternativesOf } from "./signature-alternatives.js"
import { parseSha256Signature } from "./signature-header.js"

/**
 * What the server found when a request signature failed, for the merchant's own troubleshooting.
 * `canonical` is the string the server signed (the body only as its SHA-256), never a secret or the raw body.
 */
export interface SignatureCheck {
  readonly canonical: string
  readonly cause: string
  readonly explanation: string
}

/** The schema of a `SignatureCheck`, so errors carrying one stay plain Schema data. */
export const SignatureCheck: Schema.Schema<SignatureCheck> = Schema.Struct({
  canonical: Schema.String,
  cause: Schema.String,
  explanation: Schema.String
})

/** Every cause a diagnosis can name, most specific first; the README's troubleshooting table lists them. */
export const SIGNATURE_CAUSES = [
  "missing_timestamp",
  "malformed_timestamp",
  "stale_timestamp",
  "missing_signature",
  "malformed_signature",
  "wrong_environment_secret",
  "query_string_missing",
  "body_reserialized",
  "base_path",
  "method_case",
  "timestamp_mismatch",
  "unknown"
] as const
export type SignatureCause = typeof SIGNATURE_CAUSES[number]

/**
 * Bodies above this are not tried against near misses: each costs an HMAC over the whole body, and a
 * stranger holding only a merchant key could otherwise make every refusal expensive.
 */
export const MAX_DIAGNOSED_BODY_BYTES = 64 * 1024

/** A request refused for its timestamp or signature, with the keys the diagnosis may try. */
export interface FailedSignature {
  readonly timestamp: string | undefined
  readonly signature: string | undefined
  readonly method: string
  /** Every path with query the server accepts for it: the full one first, then the relative one when mounted. */
  readonly accepted: ReadonlyArray<string>
  readonly rawBody: Uint8Array
  readonly nowSeconds: number
  readonly toleranceSeconds: number
  readonly environment: Environment
  readonly clientSecret: string | Uint8Array
  /** The same merchant's current client secret in the other environment, if it has one: tried, never shown. */
  readonly otherEnvironmentSecret: string | Uint8Array | undefined
  /** The path of the public base URL (a proxy may strip it before the kit sees the request). */
  readonly publicBasePath: string | undefined
}

/** `{timestamp}.{METHOD}.{path with query}.{sha256 hex of the body}`: what was signed, safe to show. */
export const canonicalString = (request: Pick<FailedSignature, "timestamp" | "method" | "accepted" | "rawBody">): string =>
  `${request.timestamp ?? ""}.${request.method.toUpperCase()}.${request.accepted[0]!}.${sha256Hex(request.rawBody)}`

const otherEnvironment = (environment: Environment): Environment => environment === "sandbox" ? "production" : "sandbox"

const skewText = (skewSeconds: number): string =>
  skewSeconds > 0 ? `${skewSeconds} seconds behind` : `${-skewSeconds} seconds ahead of`

const explanations = (request: FailedSignature, signedPath: string | undefined, skewSeconds: number) => ({
  missing_timestamp: "No X-Timestamp header was sent; send the current Unix time in seconds and sign that same value.",
  malformed_timestamp:
    "X-Timestamp is not Unix time in whole seconds; send digits only, e.g. Math.floor(Date.now() / 1000), not milliseconds or a date.",
  stale_timestamp: `X-Timestamp is ${skewText(skewSeconds)} the server's clock, outside the ${request.toleranceSeconds}-second window; keep your clock in sync (NTP) and take a fresh timestamp for every request, retries included.`,
  missing_signature:
    "No X-Signature header was sent; send sha256= and the hex HMAC-SHA256 of the canonical string, keyed with the environment's client secret.",
  malformed_signature:
    "X-Signature is not sha256= followed by 64 hex characters; send the HMAC-SHA256 digest as hex (not base64), with or without the sha256= prefix.",
  wrong_environment_secret: `The signature was made with this merchant's ${otherEnvironment(request.environment)} client secret; sign ${request.environment} requests with the ${request.environment} client secret.`,
  query_string_missing:
    "The signature matches the path without its query string; sign the path exactly as sent, the ? and query included.",
  body_reserialized:
    "The signature matches the body parsed and written again as JSON, not the bytes sent; serialize the body once and sign and send that same string.",
  base_path: `The signature matches the path ${signedPath ?? ""}, not one the request reached; sign the path as called, with the kit's base path or relative to it (${request.accepted.join(" or ")}).`,
  method_case: "The signature matches a lower-case method; sign the HTTP method in upper case (POST, GET).",
  timestamp_mismatch:
    "The signature matches a timestamp a second or two from X-Timestamp; read the clock once and use that value for both the header and the signature.",
  unknown: `No common mistake matches; compare your signed string with the canonical one part by part (X-Timestamp, upper-case method, path with query as sent, SHA-256 hex of the exact body bytes) and check you sign with the ${request.environment} client secret.`
})

const check = (request: FailedSignature, cause: SignatureCause, extra: { signedPath?: string; skewSeconds?: number } = {}): SignatureCheck => ({
  canonical: canonicalString(request),
  cause,
  explanation: explanations(request, extra.signedPath, extra.skewSeconds ?? 0)[cause]
})

/** Every MAC is computed and compared, without stopping at a match, so the work done tells nothing. */
const matchesOf = (provided: Uint8Array, key: string | Uint8Array, payloads: ReadonlyArray<Uint8Array>): ReadonlyArray<boolean> =>
  payloads.map((payload) => constantTimeEqualBytes(provided, hmacSha256(key, payload)))

/**
 * Why a request's timestamp or signature was refused, and what the server signed. Runs only after
 * verification failed; it never decides whether a request is accepted. The most likely cause is the
 * first that holds: the timestamp, the header's form, the other environment's secret, then each
 * near miss of `alternativesOf`; `unknown` when none matches.
 */
export const diagnoseSignature = (request: FailedSignature): SignatureCheck => {
  const timestamp = checkTimestamp({
    header: request.timestamp,
    nowSeconds: request.nowSeconds,
    toleranceSeconds: request.toleranceSeconds
  })
  if (timestamp._tag === "Missing") return check(request, "missing_timestamp")
  if (timestamp._tag === "Malformed") return check(request, "malformed_timestamp")
  if (timestamp._tag === "Stale") return check(request, "stale_timestamp", { skewSeconds: timestamp.skewSeconds })
  if (request.signature === undefined || request.signature === "") return check(request, "missing_signature")
  const provided = parseSha256Signature(request.signature)
  if (provided === undefined) return check(request, "malformed_signature")
  if (request.rawBody.length > MAX_DIAGNOSED_BODY_BYTES) return check(request, "unknown")

  const parts = { timestamp: request.timestamp!, method: request.method, rawBody: request.rawBody }
  if (request.otherEnvironmentSecret !== undefined) {
    const payloads = request.accepted.map((pathWithQuery) => signaturePayload({ ...parts, pathWithQuery }))
    if (matchesOf(provided, request.otherEnvironmentSecret, payloads).includes(true)) {
      return check(request, "wrong_environment_secret")
    }
  }
  const alternatives = alternativesOf({ ...parts, accepted: request.accepted, publicBasePath: request.publicBasePath })
  const matches = matchesOf(provided, request.clientSecret, alternatives.map((alternative) => signaturePayloadAsWritten(alternative.parts)))
  const found: Alternative | undefined = alternatives[matches.indexOf(true)]
  return found === undefined
    ? check(request, "unknown")
    : check(request, found.cause, found.signedPath !== undefined ? { signedPath: found.signedPath } : {})
}

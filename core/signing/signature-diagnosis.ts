import * as Schema from "effect/Schema"

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

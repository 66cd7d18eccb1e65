import * as Schema from "effect/Schema"
import { Environment } from "../shared/environment.js"
import { SignatureCheck } from "../signing/signature-diagnosis.js"

/** Why a request's credentials were refused; every reason is a 401, each with its own message. */
export const AuthenticationFailure = Schema.Literal(
  "missing_environment",
  "invalid_environment",
  "missing_credentials",
  "invalid_credentials",
  "missing_timestamp",
  "malformed_timestamp",
  "stale_timestamp",
  "missing_signature",
  "invalid_signature"
)
export type AuthenticationFailure = typeof AuthenticationFailure.Type

/**
 * A refused request. `knownCaller` and `signatureCheck` are for the operator's and the merchant's
 * diagnosis only (logs, request history); the 401 answer never shows them.
 */
export class AuthenticationFailed extends Schema.TaggedError<AuthenticationFailed>()("AuthenticationFailed", {
  reason: AuthenticationFailure,
  /** Set whenever `X-Merchant-Key` named a real credential set, whatever failed after. */
  knownCaller: Schema.optional(Schema.Struct({ merchantId: Schema.String, environment: Environment })),
  /** Set when the timestamp or signature check failed: what the server signed and the likely cause. */
  signatureCheck: Schema.optional(SignatureCheck)
}) {}

/** A pending merchant asked for production (spec 5.9). */
export class MerchantPendingApproval extends Schema.TaggedError<MerchantPendingApproval>()("MerchantPendingApproval", {}) {}

export class MerchantSuspended extends Schema.TaggedError<MerchantSuspended>()("MerchantSuspended", {}) {}

/** Rejected or disabled merchants cannot use the API at all. */
export class MerchantBlocked extends Schema.TaggedError<MerchantBlocked>()("MerchantBlocked", {
  status: Schema.Literal("rejected", "disabled")
}) {}

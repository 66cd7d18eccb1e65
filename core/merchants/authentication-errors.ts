import * as Schema from "effect/Schema"

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

export class AuthenticationFailed extends Schema.TaggedError<AuthenticationFailed>()("AuthenticationFailed", {
  reason: AuthenticationFailure
}) {}

/** A pending merchant asked for production (spec 5.9). */
export class MerchantPendingApproval extends Schema.TaggedError<MerchantPendingApproval>()("MerchantPendingApproval", {}) {}

export class MerchantSuspended extends Schema.TaggedError<MerchantSuspended>()("MerchantSuspended", {}) {}

/** Rejected or disabled merchants cannot use the API at all. */
export class MerchantBlocked extends Schema.TaggedError<MerchantBlocked>()("MerchantBlocked", {
  status: Schema.Literal("rejected", "disabled")
}) {}

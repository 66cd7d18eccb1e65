import * as Schema from "effect/Schema"
import { AuthenticationFailure } from "../../../core/merchants/authentication-errors.js"

/** Failures only the HTTP edge can have; domain errors live beside their features. */
export class MalformedJson extends Schema.TaggedError<MalformedJson>()("MalformedJson", {
  detail: Schema.String
}) {}

export class BodyTooLarge extends Schema.TaggedError<BodyTooLarge>()("BodyTooLarge", {
  limitBytes: Schema.Number
}) {}

export class RouteNotFound extends Schema.TaggedError<RouteNotFound>()("RouteNotFound", {}) {}

export class ResourceNotFound extends Schema.TaggedError<ResourceNotFound>()("ResourceNotFound", {
  resource: Schema.String
}) {}

/** A redelivery asked for while a worker is sending the delivery right now. */
export class DeliveryInFlight extends Schema.TaggedError<DeliveryInFlight>()("DeliveryInFlight", {}) {}

export class StoreUnavailable extends Schema.TaggedError<StoreUnavailable>()("StoreUnavailable", {}) {}

export class AdminUnauthorized extends Schema.TaggedError<AdminUnauthorized>()("AdminUnauthorized", {}) {}

export class RateLimited extends Schema.TaggedError<RateLimited>()("RateLimited", {
  retryAfterSeconds: Schema.Number
}) {}

/**
 * A failed authentication past the failed-authentication threshold (core/rate-limit/auth-throttle.ts):
 * 429 rather than 401, still naming the failure, so a client shows its real mistake.
 */
export class AuthenticationThrottled extends Schema.TaggedError<AuthenticationThrottled>()("AuthenticationThrottled", {
  retryAfterSeconds: Schema.Number,
  /** What the last refused request got wrong: a merchant credential's reason, or the admin token. */
  reason: Schema.Union(AuthenticationFailure, Schema.Literal("admin_token"))
}) {}

export class IdempotencyKeyReused extends Schema.TaggedError<IdempotencyKeyReused>()("IdempotencyKeyReused", {}) {}

export class IdempotentRequestInFlight extends Schema.TaggedError<IdempotentRequestInFlight>()("IdempotentRequestInFlight", {
  retryAfterSeconds: Schema.Number
}) {}

/** A known path asked with a method it does not answer. */
export class MethodNotAllowed extends Schema.TaggedError<MethodNotAllowed>()("MethodNotAllowed", {
  allow: Schema.Array(Schema.String)
}) {}

/** A body sent as something other than JSON to an endpoint that reads JSON. */
export class UnsupportedMediaType extends Schema.TaggedError<UnsupportedMediaType>()("UnsupportedMediaType", {
  /** The type the endpoint reads, when it is not JSON (a CSV upload). */
  expected: Schema.optional(Schema.String)
}) {}

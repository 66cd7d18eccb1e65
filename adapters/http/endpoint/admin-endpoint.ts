import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { AuthThrottle } from "../../../core/rate-limit/auth-throttle.js"
import { constantTimeEqualHex, sha256Hex } from "../../../core/signing/hmac.js"
import { renderApiResponse, type ApiResponse } from "../response/api-response.js"
import { AdminUnauthorized, AuthenticationThrottled } from "../response/edge-errors.js"
import { clientAddress } from "../request/client-address.js"
import { RawBody, readJsonRawBody } from "../request/request-body.js"
import { renderError, toHttpResponse } from "../response/responses.js"
import type { ApiError } from "../response/api-error.js"
import { type AdminOperation, auditedChange, isChangeRequest } from "./admin-change-audit.js"

/** The operator's bearer token for /admin/v1. */
export class AdminToken extends Context.Tag("merchant-payments/http/AdminToken")<AdminToken, string>() {}

/** Hashing first gives equal-length inputs, so the comparison is constant time whatever was sent. */
const tokenMatches = (presented: string, expected: string) => constantTimeEqualHex(sha256Hex(presented), sha256Hex(expected))

/**
 * Fails unless the request carries the admin bearer token; every /admin/v1 answer starts here. A
 * wrong token counts against the caller's address: past the threshold it is answered 429 (after the
 * throttle's hold) until the window ends, while the right token from the same address still passes.
 */
export const requireAdminToken = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  // The scheme name is case-insensitive (RFC 7235); the token is not.
  const [scheme = "", presented = ""] = (request.headers["authorization"] ?? "").split(" ", 2)
  if (scheme.toLowerCase() !== "bearer" || presented === "" || !tokenMatches(presented, yield* AdminToken)) {
    const retryAfterSeconds = yield* (yield* AuthThrottle).failed(yield* clientAddress(request), undefined, Math.floor(Date.now() / 1000))
    return yield* (retryAfterSeconds === undefined
      ? new AdminUnauthorized()
      : new AuthenticationThrottled({ retryAfterSeconds, reason: "admin_token" }))
  }
})

/**
 * Every /admin/v1 route: the token first, then the handler; a change (any method but GET and HEAD)
 * runs through the audit log, which records who asked it, from where, and how it was answered.
 */
export const adminEndpoint = <E extends ApiError, R>(handler: Effect.Effect<ApiResponse, E, R>, operation: AdminOperation) =>
  Effect.gen(function*() {
    yield* requireAdminToken
    if ((yield* isChangeRequest) || operation.auditedRead === true) return renderApiResponse(yield* auditedChange(operation, yield* AdminToken, handler))
    const rawBody = yield* readJsonRawBody
    return renderApiResponse(yield* Effect.provideService(handler, RawBody, rawBody))
  }).pipe(
    Effect.catchAll(renderError),
    Effect.map(toHttpResponse)
  )

import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { AuthenticationFailed } from "../../../core/merchants/authentication-errors.js"
import { Authenticator, type AuthenticatedMerchant } from "../../../core/merchants/authenticator.js"
import type { Environment } from "../../../core/shared/environment.js"
import { AuthThrottle } from "../../../core/rate-limit/auth-throttle.js"
import { RateLimiter } from "../../../core/rate-limit/rate-limiter.js"
import { SiteSettingsService } from "../../../core/settings/site-settings-service.js"
import { renderApiResponse, type ApiResponse } from "../response/api-response.js"
import { AuthenticationThrottled, RateLimited } from "../response/edge-errors.js"
import { idempotent } from "./idempotent-request.js"
import { RawBody, readJsonRawBody } from "../request/request-body.js"
import { clientAddress } from "../request/client-address.js"
import { relativeRequestTarget, requestTarget } from "../request/request-target.js"
import { renderError, toHttpResponse } from "../response/responses.js"
import type { ApiError } from "../response/api-error.js"

/** The authenticated caller of a merchant endpoint. */
export class CurrentMerchant extends Context.Tag("merchant-payments/http/CurrentMerchant")<CurrentMerchant, AuthenticatedMerchant>() {}

const header = (request: HttpServerRequest.HttpServerRequest, name: string): string | undefined => request.headers[name]

/**
 * Every merchant API call: read the exact body, authenticate (spec 5), count against the rate limit
 * (spec 8), honour Idempotency-Key on POST, run the handler, and answer every failure with the 7.3
 * body. Expected failures become responses before the idempotency layer, so a 4xx is replayed too.
 */
export const merchantEndpoint = <E extends ApiError, R>(
  handler: Effect.Effect<ApiResponse, E, R>,
  options: { readonly defaultEnvironment?: Environment; readonly neverReplayed?: true } = {}
) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const rawBody = yield* readJsonRawBody
    const nowSeconds = Math.floor(Date.now() / 1000)
    const ip = yield* clientAddress(request)
    const throttle = yield* AuthThrottle
    const caller = yield* (yield* Authenticator).authenticate({
      environmentHeader: header(request, "x-environment"),
      defaultEnvironment: options.defaultEnvironment,
      merchantKey: header(request, "x-merchant-key"),
      apiKey: header(request, "x-api-key"),
      timestamp: header(request, "x-timestamp"),
      signature: header(request, "x-signature"),
      method: request.method,
      pathWithQuery: requestTarget(request),
      relativePathWithQuery: relativeRequestTarget(request),
      rawBody,
      nowSeconds
    }).pipe(Effect.catchTag("AuthenticationFailed", (failure) =>
      // Only a request that failed is counted or throttled: a good one never meets the throttle.
      Effect.flatMap(
        throttle.failed(ip, header(request, "x-merchant-key"), nowSeconds),
        (retryAfterSeconds): Effect.Effect<never, AuthenticationFailed | AuthenticationThrottled> =>
          retryAfterSeconds === undefined
            ? Effect.fail(failure)
            : Effect.fail(new AuthenticationThrottled({ retryAfterSeconds, reason: failure.reason }))
      )))
    const { rateLimitPerMinute } = yield* (yield* SiteSettingsService).current
    const decision = yield* (yield* RateLimiter).check(`${caller.merchant.id}|${ip}`, rateLimitPerMinute, nowSeconds)
    if (!decision.allowed) return yield* new RateLimited({ retryAfterSeconds: decision.retryAfterSeconds })

    const run = handler.pipe(
      Effect.map(renderApiResponse),
      Effect.catchAll(renderError),
      // One provision of both: each one copies the fiber's context (and its FiberRefs) twice.
      Effect.provide(Context.add(Context.make(CurrentMerchant, caller), RawBody, rawBody))
    )
    return request.method === "POST" && options.neverReplayed !== true ? yield* idempotent(caller, rawBody, run) : yield* run
  }).pipe(
    Effect.catchAll(renderError),
    Effect.map(toHttpResponse)
  )

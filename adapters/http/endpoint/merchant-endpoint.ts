import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { AuthenticationFailed } from "../../../core/merchants/authentication-errors.js"
import { Authenticator, type AuthenticatedMerchant } from "../../../core/merchants/authenticator.js"
import type { Environment } from "../../../core/shared/environment.js"
import { MerchantId } from "../../../core/shared/ids.js"
import type { SignatureCheck } from "../../../core/signing/signature-diagnosis.js"
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
import { isKept, keepCall, type LogOwner } from "./kept-call.js"

/** The authenticated caller of a merchant endpoint. */
export class CurrentMerchant extends Context.Tag("merchant-payments/http/CurrentMerchant")<CurrentMerchant, AuthenticatedMerchant>() {}

const header = (request: HttpServerRequest.HttpServerRequest, name: string): string | undefined => request.headers[name]

/**
 * Every merchant API call: read the exact body, authenticate (spec 5), count against the rate limit
 * (spec 8), honour Idempotency-Key on POST, run the handler, and answer every failure with the 7.3
 * body. Expected failures become responses before the idempotency layer, so a 4xx is replayed too.
 * Once answered, the call is queued for its merchant's request log (kept-call.ts): the caller's, or
 * for a refused call the merchant its real key names.
 */
export const merchantEndpoint = <E extends ApiError, R>(
  handler: Effect.Effect<ApiResponse, E, R>,
  options: { readonly defaultEnvironment?: Environment; readonly neverReplayed?: true } = {}
) =>
  Effect.suspend(() => {
    const started = performance.now()
    // Learnt as the call goes: whose log it belongs to, and the body it carried.
    let owner: LogOwner | undefined
    let body: Uint8Array | undefined
    let signatureCheck: SignatureCheck | null = null
    const answered = Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const rawBody = yield* readJsonRawBody
      body = rawBody
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
      }).pipe(Effect.catchTag("AuthenticationFailed", (failure) => {
        // A refusal of a real merchant key goes to that merchant's log, with the signature's diagnosis.
        if (failure.knownCaller !== undefined) {
          owner = { merchantId: MerchantId(Number(failure.knownCaller.merchantId)), environment: failure.knownCaller.environment }
          signatureCheck = failure.signatureCheck ?? null
        }
        // Only a request that failed is counted or throttled: a good one never meets the throttle.
        return Effect.flatMap(
          throttle.failed(ip, header(request, "x-merchant-key"), nowSeconds),
          (retryAfterSeconds): Effect.Effect<never, AuthenticationFailed | AuthenticationThrottled> =>
            retryAfterSeconds === undefined
              ? Effect.fail(failure)
              : Effect.fail(new AuthenticationThrottled({ retryAfterSeconds, reason: failure.reason }))
        )
      }))
      owner = { merchantId: caller.merchant.id, environment: caller.environment }
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
    })
    return answered.pipe(
      Effect.catchAll(renderError),
      Effect.tap((response) =>
        Effect.flatMap(HttpServerRequest.HttpServerRequest, (request) =>
          owner !== undefined && isKept(request) ? keepCall(request, owner, body, response, started, signatureCheck) : Effect.void)),
      Effect.map(toHttpResponse)
    )
  })

import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import type { Environment } from "../../../core/shared/environment.js"
import { receiveNotification } from "../../../core/payments/gateway-notifications.js"
import { RateLimiter } from "../../../core/rate-limit/rate-limiter.js"
import { GatewayId } from "../../../core/shared/ids.js"
import { gatewayIdInPath } from "../contract/parameters.js"
import { RateLimited } from "../response/edge-errors.js"
import { readRawBody } from "../request/request-body.js"
import { clientAddress } from "../request/client-address.js"
import { errorHttpResponse } from "../response/responses.js"

/**
 * Notifications one address may post to one gateway record a minute, across hosts; past it 429 with
 * Retry-After, which gateways retry. Well above a real gateway's pace for one platform.
 */
export const NOTIFICATIONS_PER_MINUTE = 600

/** The environment the checkout's notifyUrl named; a gateway configured by hand gets production. */
const environmentOf = (url: string): Environment =>
  new URL(url, "http://notify.invalid").searchParams.get("environment") === "sandbox" ? "sandbox" : "production"

/**
 * `POST /gateways/{gateway_id}/notify`: the raw body and the headers go to the gateway record's
 * plugin, whose reply the gateway gets back. No merchant signature here: the plugin verifies its
 * gateway's own, and the core trusts nothing it could not verify. A plugin or store that cannot
 * answer now is a 5xx, which gateways retry.
 */
export const gatewayNotifyRoutes = HttpRouter.empty.pipe(
  HttpRouter.post(
    "/gateways/:id/notify",
    Effect.gen(function*() {
      const request = yield* HttpServerRequest.HttpServerRequest
      const gatewayId = GatewayId(yield* gatewayIdInPath.read)
      const decision = yield* (yield* RateLimiter).check(
        `notifications|${gatewayId}|${yield* clientAddress(request)}`,
        NOTIFICATIONS_PER_MINUTE,
        Math.floor(Date.now() / 1000)
      )
      if (!decision.allowed) return yield* new RateLimited({ retryAfterSeconds: decision.retryAfterSeconds })
      const { reply } = yield* receiveNotification({
        gatewayId,
        environment: environmentOf(request.url),
        rawBody: yield* readRawBody,
        headers: request.headers
      })
      return HttpServerResponse.text(reply.body ?? "", {
        status: reply.status,
        headers: reply.headers ?? {},
        contentType: reply.headers?.["content-type"] ?? "text/plain; charset=utf-8"
      })
    }).pipe(Effect.catchAll(errorHttpResponse))
  )
)

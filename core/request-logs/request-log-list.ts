import * as Effect from "effect/Effect"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { keysetCursor, keysetPage, type KeysetRequest } from "../shared/keyset-page.js"
import { ValidationFailed } from "../shared/validation.js"
import { RequestLogRepository, type RequestLog, type StatusRange } from "./request-log.js"

/**
 * The merchant's own log of its API calls, in the environment of its credentials only: another
 * merchant's or environment's calls are never in it.
 */

export const DEFAULT_REQUEST_LOG_LIMIT = 20
export const MAX_REQUEST_LOG_LIMIT = 100

export interface RequestLogListRequest extends KeysetRequest {
  /** As the caller wrote it: `401`, or a class such as `4xx`. */
  readonly status?: string
  readonly pathPrefix?: string
}

export interface RequestLogPage {
  readonly logs: ReadonlyArray<RequestLog>
  /** Where the next page starts; null on the last page. */
  readonly nextCursor: string | null
}

/** `401` is that status only; `4xx` every status from 400 to 499; anything else is refused, by name. */
export const statusRange = (text: string): Effect.Effect<StatusRange, ValidationFailed> => {
  const exact = /^[1-5]\d\d$/.exec(text)
  if (exact !== null) return Effect.succeed({ min: Number(text), max: Number(text) })
  const klass = /^([1-5])xx$/i.exec(text)
  if (klass !== null) return Effect.succeed({ min: Number(klass[1]) * 100, max: Number(klass[1]) * 100 + 99 })
  return Effect.fail(ValidationFailed.field("status", "The status must be a status code such as 401 or a class such as 2xx, 4xx or 5xx."))
}

/** Log ids are `rl_` and 32 hex digits (request-log-writer.ts). */
const requestLogCursor = keysetCursor("rl_[0-9a-f]{32}", String)

/** One page, newest first; the next page starts after its last entry, whatever arrived since. */
export const listRequestLogs = (caller: MerchantScope, request: RequestLogListRequest) =>
  Effect.gen(function*() {
    const status = request.status === undefined ? undefined : yield* statusRange(request.status)
    // Said before keysetPage's own check, in words that fit whatever the edge calls the two ends.
    if (request.since !== undefined && request.until !== undefined && request.until <= request.since) {
      return yield* ValidationFailed.field("until", "The end of the time range must be after its start.")
    }
    const repository = yield* RequestLogRepository
    const { nextCursor, rows } = yield* keysetPage(requestLogCursor, request, ({ before, limit }) =>
      repository.list({
        merchantId: caller.merchant.id,
        environment: caller.environment,
        limit,
        ...(status !== undefined ? { status } : {}),
        ...(request.pathPrefix !== undefined ? { pathPrefix: request.pathPrefix } : {}),
        ...(request.since !== undefined ? { since: request.since } : {}),
        ...(request.until !== undefined ? { until: request.until } : {}),
        ...(before !== undefined ? { before } : {})
      }))
    const page: RequestLogPage = { logs: rows, nextCursor }
    return page
  })

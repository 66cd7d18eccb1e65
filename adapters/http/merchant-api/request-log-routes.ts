import * as Effect from "effect/Effect"
import type { RequestLog } from "../../../core/request-logs/request-log.js"
import { listRequestLogs } from "../../../core/request-logs/request-log-list.js"
import { toIsoString } from "../../../core/shared/instant.js"
import { RequestLogPage, type RequestLogEntry, requestLogListQuery } from "../contract/request-log-contracts.js"
import { endpoint } from "../endpoint/endpoint.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"

const entryJson = (log: RequestLog): typeof RequestLogEntry.Type => ({
  id: log.id,
  request_id: log.requestId,
  method: log.method,
  path: log.path,
  status: log.status,
  duration_ms: log.durationMs,
  idempotency_key: log.idempotencyKey,
  error: log.error === null ? null : { error_code: log.error.errorCode, message: log.error.message },
  request_body: log.requestBody,
  response_body: log.responseBody,
  signature_check: log.signatureCheck,
  created_at: toIsoString(log.createdAt)
})

export const REQUEST_LOGS_PATH = "/api/v1/request-logs"

const list = endpoint({
  method: "get",
  path: REQUEST_LOGS_PATH,
  operationId: "listRequestLogs",
  summary: "List the merchant's API calls, newest first",
  description: "Every call made with the merchant's credentials in the environment of the request, kept 14 days by default: " +
    "method, path, status, duration, bodies with secrets redacted, and the error of a refused call (a refused signature with " +
    "what was compared). Calls to this list and to the event stream are not kept. Pages follow next_cursor; to follow new " +
    "calls, ask again with `from` and skip the ids already seen.",
  tag: "Request logs",
  security: "merchant",
  query: requestLogListQuery,
  wireNames: { since: "from", until: "to", pathPrefix: "path" },
  success: { status: 200, description: "A page of calls.", schema: RequestLogPage },
  handler: ({ from, path, to, ...request }) =>
    Effect.gen(function*() {
      const page = yield* listRequestLogs(yield* CurrentMerchant, {
        ...request,
        ...(from !== undefined ? { since: from } : {}),
        ...(to !== undefined ? { until: to } : {}),
        ...(path !== undefined ? { pathPrefix: path } : {})
      })
      return { data: page.logs.map(entryJson), has_more: page.nextCursor !== null, next_cursor: page.nextCursor }
    })
})

/** The merchant's request logs (core/request-logs). */
export const requestLogEndpoints = [list] as const

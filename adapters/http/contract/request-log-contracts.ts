import * as Schema from "effect/Schema"
import { DEFAULT_REQUEST_LOG_LIMIT, MAX_REQUEST_LOG_LIMIT } from "../../../core/request-logs/request-log-list.js"
import { MAX_LOGGED_BODY_BYTES } from "../../../core/request-logs/request-log-redaction.js"
import { cursorParameter, limitParameter, textParameter, timeParameter } from "./keyset-parameters.js"
import { queryOf } from "./query-contract.js"
import { Integer, Timestamp } from "./value-schemas.js"

/** The query and answer of GET /api/v1/request-logs: every parameter optional, every bad one told at once. */

export const requestLogListQuery = queryOf({
  limit: limitParameter("Entries per page.", DEFAULT_REQUEST_LOG_LIMIT, MAX_REQUEST_LOG_LIMIT),
  cursor: cursorParameter("A previous page's next_cursor: the page after it, however many calls were made since."),
  status: textParameter("status", 3, "Only calls answered with this status (401) or class of status (2xx, 4xx, 5xx)."),
  path: textParameter("path", 500, "Only calls whose path (with its query) starts with this, e.g. /api/v1/payments."),
  from: timeParameter("from", "Only calls made at or after this time."),
  to: timeParameter("to", "Only calls made before this time.")
})

const body = (what: string) =>
  Schema.NullOr(Schema.String).annotations({
    description: `The ${what} body as text, secrets redacted (secret, password, api_key, token... values; card and account numbers ` +
      `but their last 4 digits), cut at ${MAX_LOGGED_BODY_BYTES / 1024} KiB; null when empty.`
  })

export const RequestLogEntry = Schema.Struct({
  id: Schema.String.annotations({ description: "The entry's id: stable, to tell entries already seen." }),
  request_id: Schema.String.annotations({ description: "The call's X-Request-Id, also in its error body." }),
  method: Schema.String,
  path: Schema.String.annotations({ description: "The path with its query, as called." }),
  status: Integer,
  duration_ms: Integer,
  idempotency_key: Schema.NullOr(Schema.String),
  error: Schema.NullOr(Schema.Struct({ error_code: Schema.String, message: Schema.String })).annotations({
    description: "The error the call was answered with; null for a success."
  }),
  request_body: body("request"),
  response_body: body("response"),
  signature_check: Schema.NullOr(Schema.Struct({ canonical: Schema.String, cause: Schema.String, explanation: Schema.String })).annotations({
    description: "For a call refused for its signature: the text the kit signed to compare, and why they differ."
  }),
  created_at: Timestamp
}).annotations({ identifier: "RequestLogEntry", description: "One call the merchant made to this API." })

export const RequestLogPage = Schema.Struct({
  data: Schema.Array(RequestLogEntry),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String).annotations({ description: "Pass as `cursor` for the next page; null on the last." })
}).annotations({ identifier: "RequestLogPage", description: "The merchant's calls in the environment of the request, newest first." })

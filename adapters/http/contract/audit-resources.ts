import * as Schema from "effect/Schema"
import { Integer, PositiveId, Timestamp } from "./value-schemas.js"

export const AuditEntry = Schema.Struct({
  id: PositiveId,
  created_at: Timestamp.annotations({ description: "When the change was answered, on business time." }),
  actor_type: Schema.Literal("admin_token", "merchant_user").annotations({
    description: "Who made it: the admin token (admin API); merchant_user is kept for dashboard actions."
  }),
  actor_id: Schema.String.annotations({
    description: "A stable name of the actor that reveals nothing secret: for the admin token, `admin:` and 12 hex digits of its SHA-256."
  }),
  source_address: Schema.String.annotations({ description: "The client's address: the socket's, or the one a trusted proxy's forwarding header names (TRUSTED_PROXIES); `unknown` when it has none." }),
  operation: Schema.String.annotations({ description: "The operation id of the route, as in the OpenAPI document: updateMerchant, issueCredentials..." }),
  method: Schema.String,
  route: Schema.String.annotations({ description: "The route's template, such as /admin/v1/merchants/{id}." }),
  path_params: Schema.Record({ key: Schema.String, value: Schema.String }).annotations({ description: "The ids the path named, by template name." }),
  merchant_id: Schema.NullOr(PositiveId).annotations({ description: "The merchant the change concerns; null when it concerns none (settings, gateways, the clock)." }),
  status: Integer.annotations({ description: "The answer's status: 2xx done, 4xx refused (nothing changed)." }),
  fields: Schema.Array(Schema.String).annotations({ description: "The names of the top-level fields the request sent, sorted; never their values." }),
  request_id: Schema.NullOr(Schema.String).annotations({ description: "The request's X-Request-Id, to find its log line." })
}).annotations({ identifier: "AuditEntry", description: "One change asked of the kit: who, what, when, from where, and how it was answered." })

export const AuditPage = Schema.Struct({
  data: Schema.Array(AuditEntry),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String).annotations({ description: "Pass as `cursor` for the next page; null on the last." })
}).annotations({ identifier: "AuditPage", description: "Audit entries, newest first." })

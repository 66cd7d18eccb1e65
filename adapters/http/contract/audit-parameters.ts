import * as Schema from "effect/Schema"
import { ACTOR_TYPES, type ActorType } from "../../../core/audit/audit-entry.js"
import { DEFAULT_AUDIT_LIMIT, MAX_AUDIT_LIMIT } from "../../../core/audit/list-audit.js"
import { integerSchema } from "./field-rules.js"
import { cursorParameter, limitParameter, timeParameter } from "./keyset-parameters.js"
import type { ListParameter } from "./parameters.js"
import { queryOf } from "./query-contract.js"

/** The query of GET /admin/v1/audit: every parameter optional, every bad one told at once. */

// The most digits a query integer is read with.
const MAX_MERCHANT_ID = 9_999_999_999

export const auditLimitParameter = limitParameter("Entries per page.", DEFAULT_AUDIT_LIMIT, MAX_AUDIT_LIMIT)
export const auditCursorParameter = cursorParameter("A previous page's next_cursor: the page after it, however many entries were recorded since.")

export const auditMerchantParameter: ListParameter<number | undefined> = {
  name: "merchant_id",
  in: "query",
  required: false,
  description: "Only the changes that concern this merchant.",
  schema: integerSchema({ min: 1, max: MAX_MERCHANT_ID }),
  read: (query) => query.integer("merchant_id", 1, MAX_MERCHANT_ID)
}

export const auditActorTypeParameter: ListParameter<ActorType | undefined> = {
  name: "actor_type",
  in: "query",
  required: false,
  description: "Only the changes of this kind of actor: admin_token (the admin API) or merchant_user (a merchant's dashboard).",
  schema: Schema.Literal(...ACTOR_TYPES),
  read: (query) => query.oneOf("actor_type", ACTOR_TYPES)
}

export const auditSinceParameter = timeParameter("since", "Only changes made at or after this time.")
export const auditUntilParameter = timeParameter("until", "Only changes made before this time.")

export const auditListQuery = queryOf({
  limit: auditLimitParameter,
  cursor: auditCursorParameter,
  merchant_id: auditMerchantParameter,
  actor_type: auditActorTypeParameter,
  since: auditSinceParameter,
  until: auditUntilParameter
})

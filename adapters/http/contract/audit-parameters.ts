import { Schema } from "effect"
import { DEFAULT_AUDIT_LIMIT, MAX_AUDIT_LIMIT } from "../../../core/audit/list-audit.js"
import type { Instant } from "../../../core/shared/instant.js"
import { integerSchema } from "./field-rules.js"
import type { ListParameter } from "./parameters.js"
import { IsoDateTime } from "./value-schemas.js"

/** The query of GET /admin/v1/audit: every parameter optional, every bad one told at once. */

// The most digits a query integer is read with.
const MAX_MERCHANT_ID = 9_999_999_999

const time = (name: string, description: string): ListParameter<Instant | undefined> => ({
  name,
  in: "query",
  required: false,
  description,
  schema: IsoDateTime,
  read: (query) => query.instant(name)
})

export const auditLimitParameter: ListParameter<number> = {
  name: "limit",
  in: "query",
  required: false,
  description: "Entries per page.",
  schema: integerSchema({ min: 1, max: MAX_AUDIT_LIMIT }).annotations({ default: DEFAULT_AUDIT_LIMIT }),
  read: (query) => query.integer("limit", 1, MAX_AUDIT_LIMIT) ?? DEFAULT_AUDIT_LIMIT
}

export const auditCursorParameter: ListParameter<string | undefined> = {
  name: "cursor",
  in: "query",
  required: false,
  description: "A previous page's next_cursor: the page after it, however many entries were recorded since.",
  schema: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)),
  read: (query) => query.text("cursor", 100)
}

export const auditMerchantParameter: ListParameter<number | undefined> = {
  name: "merchant_id",
  in: "query",
  required: false,
  description: "Only the changes that concern this merchant.",
  schema: integerSchema({ min: 1, max: MAX_MERCHANT_ID }),
  read: (query) => query.integer("merchant_id", 1, MAX_MERCHANT_ID)
}

export const auditSinceParameter = time("since", "Only changes made at or after this time.")
export const auditUntilParameter = time("until", "Only changes made before this time.")

export const auditListParameters = [
  auditLimitParameter,
  auditCursorParameter,
  auditMerchantParameter,
  auditSinceParameter,
  auditUntilParameter
] as const

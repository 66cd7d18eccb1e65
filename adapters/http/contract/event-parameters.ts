import { Schema } from "effect"
import type { Instant } from "../../../core/shared/instant.js"
import { DEFAULT_EVENT_LIMIT, MAX_EVENT_LIMIT } from "../../../core/webhooks/merchant-events.js"
import { integerSchema } from "./field-rules.js"
import type { ListParameter } from "./parameters.js"
import { IsoDateTime } from "./value-schemas.js"

/** The query of GET /api/v1/events: every parameter optional, every bad one told at once. */

const MAX_TEXT = 200

const text = (name: string, description: string): ListParameter<string | undefined> => ({
  name,
  in: "query",
  required: false,
  description,
  schema: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(MAX_TEXT)),
  read: (query) => query.text(name, MAX_TEXT)
})

const time = (name: string, description: string): ListParameter<Instant | undefined> => ({
  name,
  in: "query",
  required: false,
  description,
  schema: IsoDateTime,
  read: (query) => query.instant(name)
})

export const eventLimitParameter: ListParameter<number> = {
  name: "limit",
  in: "query",
  required: false,
  description: "Events per page.",
  schema: integerSchema({ min: 1, max: MAX_EVENT_LIMIT }).annotations({ default: DEFAULT_EVENT_LIMIT }),
  read: (query) => query.integer("limit", 1, MAX_EVENT_LIMIT) ?? DEFAULT_EVENT_LIMIT
}

export const eventCursorParameter = text("cursor", "A previous page's next_cursor: the page after it, however many events arrived since.")
export const eventTypeParameter = text("type", "Only events of this type, such as payment.completed.")
export const eventObjectParameter = text("object_id", "Only events about this object: a payment's trx_id or a subscription's id.")
export const eventSinceParameter = time("since", "Only events created at or after this time.")
export const eventUntilParameter = time("until", "Only events created before this time.")

export const eventListParameters = [
  eventLimitParameter,
  eventCursorParameter,
  eventTypeParameter,
  eventObjectParameter,
  eventSinceParameter,
  eventUntilParameter
] as const

import { Schema } from "effect"
import { DEFAULT_EVENT_LIMIT, MAX_EVENT_LIMIT } from "../../../core/webhooks/merchant-events.js"
import { cursorParameter, limitParameter, timeParameter } from "./keyset-parameters.js"
import type { ListParameter } from "./parameters.js"

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

export const eventLimitParameter = limitParameter("Events per page.", DEFAULT_EVENT_LIMIT, MAX_EVENT_LIMIT)
export const eventCursorParameter = cursorParameter("A previous page's next_cursor: the page after it, however many events arrived since.")
export const eventTypeParameter = text("type", "Only events of this type, such as payment.completed.")
export const eventObjectParameter = text("object_id", "Only events about this object: a payment's trx_id or a subscription's id.")
export const eventSinceParameter = timeParameter("since", "Only events created at or after this time.")
export const eventUntilParameter = timeParameter("until", "Only events created before this time.")

export const eventListParameters = [
  eventLimitParameter,
  eventCursorParameter,
  eventTypeParameter,
  eventObjectParameter,
  eventSinceParameter,
  eventUntilParameter
] as const

import { DEFAULT_EVENT_LIMIT, MAX_EVENT_LIMIT } from "../../../core/webhooks/merchant-events.js"
import { queryOf } from "./query-contract.js"
import { cursorParameter, limitParameter, textParameter, timeParameter } from "./keyset-parameters.js"

/** The query of GET /api/v1/events: every parameter optional, every bad one told at once. */

const MAX_TEXT = 200

const text = (name: string, description: string) => textParameter(name, MAX_TEXT, description)

export const eventLimitParameter = limitParameter("Events per page.", DEFAULT_EVENT_LIMIT, MAX_EVENT_LIMIT)
export const eventCursorParameter = cursorParameter("A previous page's next_cursor: the page after it, however many events arrived since.")
export const eventTypeParameter = text("type", "Only events of this type, such as payment.completed.")
export const eventObjectParameter = text("object_id", "Only events about this object: a payment's trx_id or a subscription's id.")
export const eventSinceParameter = timeParameter("since", "Only events created at or after this time.")
export const eventUntilParameter = timeParameter("until", "Only events created before this time.")

export const eventListQuery = queryOf({
  limit: eventLimitParameter,
  cursor: eventCursorParameter,
  type: eventTypeParameter,
  object_id: eventObjectParameter,
  since: eventSinceParameter,
  until: eventUntilParameter
})

import type { RequestOf, ResponseOf } from "./api-types.js"

/** The events API's bodies, read off the declarations. */

export type EventPage = ResponseOf<"listEvents">
export type Event = EventPage["data"][number]
export type EventDetail = ResponseOf<"retrieveEvent">
export type RecoverEventsRequest = RequestOf<"recoverEvents">
export type RecoveredEvents = ResponseOf<"recoverEvents">

export interface ListEventsQuery {
  /** 1 to 100; the service's default is 20. */
  readonly limit?: number
  /** A previous page's `next_cursor`. */
  readonly cursor?: string
  /** Such as `payment.completed`. */
  readonly type?: string
  /** A payment's trx_id or a subscription's id. */
  readonly object_id?: string
  /** ISO 8601: created at or after. */
  readonly since?: string
  /** ISO 8601: created before. */
  readonly until?: string
}

import * as Schema from "effect/Schema"
import { DeliveryStatus } from "../../../core/webhooks/delivery.js"
import { DeliveryAttempt } from "./admin-resources.js"
import { HttpUrl, Integer, NullableTimestamp, Timestamp } from "./value-schemas.js"

export const Event = Schema.Struct({
  id: Schema.String.annotations({ description: "The event id: X-Event-Id and webhook-id of each of its deliveries." }),
  type: Schema.String.annotations({ description: "payment.completed, payment.refunded, subscription.renewed..." }),
  object_id: Schema.NullOr(Schema.String).annotations({
    description: "What the event is about: a payment's trx_id (its refunds too) or a subscription's id (its invoices too)."
  }),
  sequence: Schema.NullOr(Integer).annotations({
    description: "The event's place among its object's events, from 1: drop one older than the last you applied."
  }),
  created_at: Timestamp,
  url: HttpUrl,
  status: DeliveryStatus.annotations({ description: "Where delivery stands: pending (will be sent), delivered, or failed (out of attempts)." }),
  attempts: Integer.annotations({ description: "Attempts since it was last queued." }),
  next_attempt_at: NullableTimestamp,
  last_status_code: Schema.NullOr(Integer),
  last_error: Schema.NullOr(Schema.String)
}).annotations({ identifier: "Event", description: "An event queued for the merchant, with its delivery." })

export const PausedTarget = Schema.Struct({
  target: Schema.String.annotations({ description: "The origin (scheme, host, port) of the URLs paused." }),
  failing_since: Timestamp,
  paused_at: Timestamp
}).annotations({
  identifier: "PausedTarget",
  description: "A target that failed every attempt for the deployment's pause period: its events wait, unsent, until a recover."
})

export const EventPage = Schema.Struct({
  data: Schema.Array(Event),
  has_more: Schema.Boolean,
  next_cursor: Schema.NullOr(Schema.String).annotations({ description: "Pass as `cursor` for the next page; null on the last." }),
  paused_targets: Schema.Array(PausedTarget)
}).annotations({ identifier: "EventPage", description: "Events, newest first, and the targets paused now." })

export const EventDetail = Schema.Struct({
  ...Event.fields,
  attempt_log: Schema.Array(DeliveryAttempt)
}).annotations({ identifier: "EventDetail", description: "An event with every attempt made to deliver it, oldest first." })

export const RecoveredEvents = Schema.Struct({
  queued: Integer.annotations({ description: "How many failed events were queued again." }),
  resumed_targets: Integer.annotations({ description: "How many paused targets were resumed; their waiting events go out too." })
}).annotations({ identifier: "RecoveredEvents" })

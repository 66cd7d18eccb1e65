import * as Schema from "effect/Schema"
import { TRIGGERABLE_EVENTS } from "../../../core/triggers/trigger-catalog.js"
import { dataOf } from "./envelopes.js"
import { string, url } from "./field-rules.js"
import { bodyContract } from "./read-body.js"

/** The body and answer of POST /api/v1/triggers (issue 37: sandbox events made to happen). */

export const triggerBody = bodyContract("TriggerRequest", "The event to make happen in sandbox.", {
  event: string({
    required: true,
    max: 100,
    description: `One of: ${TRIGGERABLE_EVENTS.join(", ")}. Any other event type is refused with the reason it cannot be triggered.`,
    examples: ["payment.completed"]
  }),
  ipn_url: url({
    max: 2048,
    description: "Where the triggered payment or subscription sends its events, under the usual rules; absent: no ipn_url (its events reach the merchant's webhook endpoints only)."
  })
})

const TriggeredObject = Schema.Struct({
  type: Schema.Literal("payment", "refund", "subscription", "test_clock", "payout", "dispute"),
  id: Schema.String.annotations({ description: "A payment's trx_id, a refund's refund_trx_id, or the object's id." })
}).annotations({ identifier: "TriggeredObject" })

const TriggeredEvent = Schema.Struct({
  id: Schema.String.annotations({ description: "The event's id, as its delivery to the ipn_url and the event stream carry it (X-Event-Id, webhook-id)." }),
  type: Schema.String.annotations({ examples: ["payment.completed"] })
}).annotations({ identifier: "TriggeredEvent" })

const Trigger = Schema.Struct({
  event: Schema.Literal(...TRIGGERABLE_EVENTS),
  objects: Schema.Array(TriggeredObject),
  events: Schema.Array(TriggeredEvent).annotations({
    description: "Every event about those objects, oldest first, each once whatever targets it goes to (GET /api/v1/events lists its deliveries)."
  })
}).annotations({ identifier: "Trigger", description: "What a trigger made and the events that were queued." })

export const TriggerEnvelope = dataOf(Trigger, "TriggerAnswer")

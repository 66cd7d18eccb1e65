import * as Effect from "effect/Effect"
import { toIsoString } from "../../../core/shared/instant.js"
import type { DeliveryAttempt, WebhookDelivery } from "../../../core/webhooks/delivery.js"
import type { Redelivery } from "../../../core/webhooks/delivery-admin.js"
import { DeliveryInFlight, ResourceNotFound } from "./edge-errors.js"

/** One attempt to deliver an event, as the operator's and the merchant's views both show it. */
export const attemptJson = (attempt: DeliveryAttempt) => ({
  attempt: attempt.attempt,
  at: toIsoString(attempt.at),
  status_code: attempt.statusCode,
  error: attempt.error,
  duration_ms: attempt.durationMs
})

/** What asking for a delivery again answers: the delivery pending again, a 404 named `resource`, or 409 while in flight. */
export const redeliveryAnswer = <A>(outcome: Redelivery, resource: string, toJson: (delivery: WebhookDelivery) => A) => {
  switch (outcome._tag) {
    case "NotFound":
      return Effect.fail(new ResourceNotFound({ resource }))
    case "InFlight":
      return Effect.fail(new DeliveryInFlight())
    case "Requeued":
      return Effect.succeed(toJson(outcome.delivery))
  }
}

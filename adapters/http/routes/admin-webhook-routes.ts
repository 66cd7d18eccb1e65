import { HttpRouter } from "@effect/platform"
import { Effect, Option } from "effect"
import { MerchantId } from "../../../core/shared/ids.js"
import { now, toIsoString } from "../../../core/shared/instant.js"
import { realNow } from "../../../core/shared/real-clock.js"
import type { DeliveryAttempt, WebhookDelivery } from "../../../core/webhooks/delivery.js"
import { WebhookOutbox } from "../../../core/webhooks/webhook-outbox.js"
import { adminEndpoint } from "../endpoint/admin-endpoint.js"
import { ok } from "../response/api-response.js"
import type * as Resources from "../contract/admin-resources.js"
import { deliveryFilter, deliveryIdInPath } from "../contract/parameters.js"
import { DeliveryInFlight, ResourceNotFound } from "../response/edge-errors.js"

const deliveryJson = (delivery: WebhookDelivery): typeof Resources.WebhookDelivery.Type => ({
  id: delivery.id,
  merchant_id: delivery.merchantId,
  environment: delivery.environment,
  event: delivery.event,
  url: delivery.url,
  status: delivery.status,
  attempts: delivery.attempts,
  last_status_code: delivery.lastStatusCode,
  last_error: delivery.lastError,
  next_attempt_at: delivery.nextAttemptAt === null ? null : toIsoString(delivery.nextAttemptAt),
  created_at: toIsoString(delivery.createdAt),
  updated_at: toIsoString(delivery.updatedAt)
})

const attemptJson = (attempt: DeliveryAttempt): typeof Resources.DeliveryAttempt.Type => ({
  attempt: attempt.attempt,
  at: toIsoString(attempt.at),
  status_code: attempt.statusCode,
  error: attempt.error,
  duration_ms: attempt.durationMs
})

const listFilter = Effect.map(deliveryFilter, ({ merchantId, ...filter }) => ({
  limit: 200,
  ...filter,
  ...(merchantId !== undefined ? { merchantId: MerchantId(merchantId) } : {})
}))

const deliveryId = deliveryIdInPath.read

const findDelivery = (id: string) =>
  Effect.flatMap(WebhookOutbox, (outbox) => outbox.findById(id)).pipe(
    Effect.flatMap(Option.match({ onNone: () => Effect.fail(new ResourceNotFound({ resource: "Webhook delivery" })), onSome: Effect.succeed }))
  )

export const adminWebhookRoutes = HttpRouter.empty.pipe(
  HttpRouter.get("/webhook-deliveries", adminEndpoint(Effect.gen(function*() {
    const deliveries = yield* (yield* WebhookOutbox).list(yield* listFilter)
    return ok({ data: deliveries.map(deliveryJson) })
  }))),
  HttpRouter.get("/webhook-deliveries/:id", adminEndpoint(Effect.gen(function*() {
    const delivery = yield* findDelivery(yield* deliveryId)
    const attempts = yield* (yield* WebhookOutbox).attempts(delivery.id)
    return ok({ ...deliveryJson(delivery), attempt_log: attempts.map(attemptJson) } satisfies typeof Resources.WebhookDeliveryDetail.Type)
  }))),
  HttpRouter.post("/webhook-deliveries/:id/redeliver", adminEndpoint(Effect.gen(function*() {
    const delivery = yield* findDelivery(yield* deliveryId)
    // Same body and event id, a fresh budget of attempts, due now; never while an attempt is in flight.
    const requeued = yield* (yield* WebhookOutbox).requeue(delivery.id, yield* now, yield* realNow)
    if (Option.isNone(requeued)) return yield* new DeliveryInFlight()
    return ok(deliveryJson(requeued.value))
  })))
)

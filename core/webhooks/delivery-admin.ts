import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MerchantId } from "../shared/ids.js"
import { now } from "../shared/instant.js"
import { realNow } from "../shared/real-clock.js"
import type { DeliveryAttempt, DeliveryStatus, WebhookDelivery } from "./delivery.js"
import { WebhookOutbox } from "./webhook-outbox.js"

/** How many deliveries the operator's list shows at most, newest first. */
export const RECENT_DELIVERIES = 200

/** The most recent deliveries, newest first, of one merchant or status when asked. */
export const recentDeliveries = (filter: { readonly merchantId?: MerchantId; readonly status?: DeliveryStatus }) =>
  Effect.flatMap(WebhookOutbox, (outbox) => outbox.list({ limit: RECENT_DELIVERIES, ...filter }))

/** The targets failing every attempt now, paused or not, of one merchant when asked. */
export const failingTargets = (filter: { readonly merchantId?: MerchantId }) =>
  Effect.flatMap(WebhookOutbox, (outbox) => outbox.failingTargets(filter))

/** One delivery with its attempt log, oldest attempt first; none when there is no such delivery. */
export const deliveryWithAttempts = (id: string) =>
  Effect.gen(function*() {
    const outbox = yield* WebhookOutbox
    const found = yield* outbox.findById(id)
    if (Option.isNone(found)) return Option.none<{ readonly delivery: WebhookDelivery; readonly attempts: ReadonlyArray<DeliveryAttempt> }>()
    return Option.some({ delivery: found.value, attempts: yield* outbox.attempts(found.value.id) })
  })

/** What asking for a delivery again came to. */
export type Redelivery =
  | { readonly _tag: "NotFound" }
  | { readonly _tag: "InFlight" }
  | { readonly _tag: "Requeued"; readonly delivery: WebhookDelivery }

/**
 * Sends a delivery again: the same body and event id, a fresh budget of attempts, due now on
 * business time. Never while a worker's attempt is in flight (its lease is live on the wall clock).
 */
export const redeliver = (id: string) =>
  Effect.gen(function*() {
    const outbox = yield* WebhookOutbox
    const found = yield* outbox.findById(id)
    if (Option.isNone(found)) return { _tag: "NotFound" } as Redelivery
    const requeued = yield* outbox.requeue(found.value.id, yield* now, yield* realNow)
    return Option.match(requeued, {
      onNone: (): Redelivery => ({ _tag: "InFlight" }),
      onSome: (delivery): Redelivery => ({ _tag: "Requeued", delivery })
    })
  })

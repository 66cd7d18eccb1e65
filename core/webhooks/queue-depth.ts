import * as Effect from "effect/Effect"
import * as Metric from "effect/Metric"
import { webhookQueueDepth } from "../shared/metrics.js"
import { WebhookOutbox } from "./webhook-outbox.js"

/**
 * The queue's depth as the store has it now, every host's deliveries together. Asked when metrics
 * are read; a store that does not answer leaves the last figure in place, and the scrape goes on.
 */
export const sampleQueueDepth = Effect.flatMap(WebhookOutbox, (outbox) => outbox.pendingCount).pipe(
  Effect.flatMap((depth) => Metric.set(webhookQueueDepth, depth)),
  Effect.catchAll((error) => Effect.logWarning("webhook queue depth could not be read for metrics", error))
)

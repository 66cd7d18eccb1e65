import type * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { forkBatchedSweep } from "../shared/batched-sweep.js"
import { now, plusSeconds } from "../shared/instant.js"
import { RequestLogRepository } from "./request-log.js"

export class RequestLogPurger extends Context.Tag("merchant-payments/RequestLogPurger")<RequestLogPurger, {}>() {}

/** Kept 14 days unless the host says otherwise (REQUEST_LOG_RETENTION_DAYS). */
export const DEFAULT_RETENTION_DAYS = 14
export const PURGE_BATCH_SIZE = 1_000

/** One batch of the entries older than the retention, on business time; how many went. */
export const purgeOldRequestLogs = (retentionDays: number, batchSize: number = PURGE_BATCH_SIZE) =>
  Effect.flatMap(now, (at) => Effect.flatMap(RequestLogRepository, (repository) => repository.purgeBefore(plusSeconds(at, -retentionDays * 86_400), batchSize)))

/**
 * Removes entries older than the retention in batches, so one pass never holds the table long;
 * a backlog drains batch after batch, then the sweep waits for its next interval.
 */
export const layer = (options: { readonly retentionDays?: number; readonly interval?: Duration.DurationInput; readonly clock?: Clock.Clock } = {}) =>
  Layer.scoped(
    RequestLogPurger,
    Effect.gen(function*() {
      yield* forkBatchedSweep({
        name: "request log purge",
        pass: (limit) => purgeOldRequestLogs(options.retentionDays ?? DEFAULT_RETENTION_DAYS, limit),
        batch: PURGE_BATCH_SIZE,
        interval: options.interval ?? "10 minutes",
        clock: options.clock
      })
      return RequestLogPurger.of({})
    })
  )

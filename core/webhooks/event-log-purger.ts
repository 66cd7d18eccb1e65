import type * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { now, plusSeconds } from "../shared/instant.js"
import { EVENT_LOG_RETENTION_SECONDS, EventLog } from "./event-log.js"

export class EventLogPurger extends Context.Tag("merchant-payments/EventLogPurger")<EventLogPurger, {}>() {}

/** Rows removed per statement: a backlog goes in short deletes that never hold the store long. */
export const PURGE_BATCH = 1_000

/**
 * Removes events past the log's retention, a batch at a time until none is left. On business time,
 * like the events' own created_at, so a test clock moved on ages them as it ages everything else.
 */
export const purgeOldEvents = Effect.gen(function*() {
  const before = plusSeconds(yield* now, -EVENT_LOG_RETENTION_SECONDS)
  const log = yield* EventLog
  let removed = 0
  for (;;) {
    const batch = yield* log.purgeBefore(before, PURGE_BATCH)
    removed += batch
    if (batch < PURGE_BATCH) return removed
  }
})

export const layer = (options: { readonly interval?: Duration.DurationInput; readonly clock?: Clock.Clock } = {}) =>
  Layer.scoped(
    EventLogPurger,
    Effect.gen(function*() {
      const pass = purgeOldEvents.pipe(
        Effect.tap((removed) => (removed > 0 ? Effect.logDebug(`removed ${removed} events past the event log's retention`) : Effect.void)),
        Effect.catchAllCause((cause) => Effect.logWarning("event log purge failed; retrying later", cause))
      )
      const scheduled = Effect.repeat(pass, Schedule.spaced(options.interval ?? "10 minutes"))
      yield* Effect.forkScoped(options.clock === undefined ? scheduled : Effect.withClock(scheduled, options.clock))
      return EventLogPurger.of({})
    })
  )

import type * as Clock from "effect/Clock"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Schedule from "effect/Schedule"
import type * as Scope from "effect/Scope"

export interface BatchedSweep<E, R> {
  /** What the logs call it when a pass fails. */
  readonly name: string
  /** One pass over at most `limit` due rows; answers how many it read. */
  readonly pass: (limit: number) => Effect.Effect<number, E, R>
  readonly batch: number
  readonly interval: Duration.DurationInput
  /** Business time, when it is not the real clock (a manual clock). */
  readonly clock?: Clock.Clock | undefined
}

/**
 * A background job over due rows, forked into the layer's scope: every `interval` it passes over
 * batches until one comes back short, so a backlog drains at once and an idle store costs one query.
 * A failed pass is logged and tried again next time; the job never dies of it.
 */
export const forkBatchedSweep = <E, R>(sweep: BatchedSweep<E, R>): Effect.Effect<void, never, R | Scope.Scope> => {
  const pass = sweep.pass(sweep.batch).pipe(
    Effect.repeat({ while: (read) => read === sweep.batch }),
    Effect.catchAllCause((cause) => Effect.logWarning(`${sweep.name} failed; retrying`, cause))
  )
  const scheduled = Effect.repeat(pass, Schedule.spaced(sweep.interval))
  return Effect.asVoid(Effect.forkScoped(sweep.clock === undefined ? scheduled : Effect.withClock(scheduled, sweep.clock)))
}

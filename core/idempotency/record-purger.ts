import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schedule from "effect/Schedule"
import { now } from "../shared/instant.js"
import { IdempotencyStore } from "./idempotency-store.js"

export class IdempotencyRecordPurger extends Context.Tag("merchant-payments/IdempotencyRecordPurger")<IdempotencyRecordPurger, {}>() {}

/**
 * Answers kept for replay expire after 24 hours; an expired record is already ignored, and this
 * removes it, so the table holds about one day of keys rather than every key ever sent. On real
 * time, like the replay window itself, whatever clock the business runs on.
 */
export const layer = (options: { readonly interval?: Duration.DurationInput } = {}) =>
  Layer.scoped(
    IdempotencyRecordPurger,
    Effect.gen(function*() {
      const store = yield* IdempotencyStore
      const pass = Effect.flatMap(now, store.purgeExpired).pipe(
        Effect.tap((removed) => (removed > 0 ? Effect.logDebug(`removed ${removed} expired idempotency records`) : Effect.void)),
        Effect.catchAllCause((cause) => Effect.logWarning("idempotency record purge failed; retrying later", cause))
      )
      yield* Effect.forkScoped(Effect.repeat(pass, Schedule.spaced(options.interval ?? "1 hour")))
      return IdempotencyRecordPurger.of({})
    })
  )

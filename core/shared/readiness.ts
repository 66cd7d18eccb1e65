import * as Context from "effect/Context"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Ref from "effect/Ref"
import { StoreHealth } from "./store-health.js"

/** Why a host should not be sent traffic now, or that it may be. */
export type ReadinessVerdict =
  | { readonly ready: true }
  | { readonly ready: false; readonly reason: string }

/** How long the store may take to answer a readiness check before the host counts as not ready. */
export const READINESS_TIMEOUT = Duration.seconds(2)

/**
 * Readiness, apart from liveness: a host is ready while its store answers in time with every
 * migration this code needs applied and room on its disk for writes, and until its shutdown begins, so a load balancer stops
 * sending it requests before it drains the ones it has.
 */
export class Readiness extends Context.Tag("merchant-payments/Readiness")<Readiness, {
  readonly check: Effect.Effect<ReadinessVerdict>
  /** Called as shutdown begins: from then on the host is not ready. */
  readonly beginDrain: Effect.Effect<void>
  /** Whether shutdown has begun: long-lived answers (an event stream) end themselves so the drain finishes. */
  readonly draining: Effect.Effect<boolean>
}>() {}

const notReady = (reason: string): ReadinessVerdict => ({ ready: false, reason })

export const layer = Layer.effect(
  Readiness,
  Effect.gen(function*() {
    const health = yield* StoreHealth
    const draining = yield* Ref.make(false)
    const storeVerdict = Effect.zipRight(health.ping, Effect.zip(health.pendingMigrations, health.diskFull)).pipe(
      Effect.map(([pending, diskFull]): ReadinessVerdict =>
        pending.length > 0
          ? notReady(`migrations not applied: ${pending.join(", ")}`)
          : diskFull
          ? notReady("the store's disk is full")
          : { ready: true }
      ),
      // Disconnected, so the verdict comes at the timeout even when the store's statement cannot be
      // cut short (a PostgreSQL statement once sent is waited for): it finishes on its own.
      Effect.disconnect,
      Effect.timeoutTo({
        duration: READINESS_TIMEOUT,
        onTimeout: () => notReady(`the store did not answer within ${Duration.format(READINESS_TIMEOUT)}`),
        onSuccess: (verdict) => verdict
      }),
      Effect.catchAllCause(() => Effect.succeed(notReady("the store does not answer")))
    )
    return Readiness.of({
      check: Effect.flatMap(Ref.get(draining), (isDraining) => (isDraining ? Effect.succeed(notReady("shutting down")) : storeVerdict)),
      beginDrain: Ref.set(draining, true),
      draining: Ref.get(draining)
    })
  })
)

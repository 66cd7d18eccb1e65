import { describe, expect, it } from "@effect/vitest"
import { Effect, Fiber, Layer, TestClock } from "effect"
import { StorageError } from "./storage-error.js"
import { Readiness, layer as readinessLayer } from "./readiness.js"
import { StoreHealth } from "./store-health.js"

const withStore = (store: {
  readonly ping?: Effect.Effect<void, StorageError>
  readonly pendingMigrations?: Effect.Effect<ReadonlyArray<string>, StorageError>
  readonly diskFull?: Effect.Effect<boolean>
}) =>
  readinessLayer.pipe(Layer.provide(Layer.succeed(StoreHealth, StoreHealth.of({
    ping: store.ping ?? Effect.void,
    pendingMigrations: store.pendingMigrations ?? Effect.succeed([]),
    diskFull: store.diskFull ?? Effect.succeed(false)
  }))))

const check = Effect.flatMap(Readiness, (readiness) => readiness.check)

describe("readiness", () => {
  it.effect("is ready while the store answers with every migration applied, and not once shutdown begins", () =>
    Effect.gen(function*() {
      expect(yield* check).toEqual({ ready: true })
      yield* Effect.flatMap(Readiness, (readiness) => readiness.beginDrain)
      expect(yield* check).toEqual({ ready: false, reason: "shutting down" })
    }).pipe(Effect.provide(withStore({}))))

  it.effect("names the migrations the store lacks", () =>
    check.pipe(
      Effect.map((verdict) => expect(verdict).toEqual({ ready: false, reason: "migrations not applied: 0007_paused_targets" })),
      Effect.provide(withStore({ pendingMigrations: Effect.succeed(["0007_paused_targets"]) }))
    ))

  it.effect("is not ready while the store's disk is full, and ready again once it is not, asked afresh each time", () =>
    Effect.gen(function*() {
      let full = true
      const readiness = withStore({ diskFull: Effect.sync(() => full) })
      expect(yield* check.pipe(Effect.provide(readiness))).toEqual({ ready: false, reason: "the store's disk is full" })
      full = false
      expect(yield* check.pipe(Effect.provide(readiness))).toEqual({ ready: true })
    }))

  it.effect("is not ready when the store refuses, or does not answer within 2 s", () =>
    Effect.gen(function*() {
      const refused = yield* check.pipe(Effect.provide(withStore({ ping: Effect.fail(new StorageError({ message: "ECONNREFUSED" })) })))
      expect(refused).toEqual({ ready: false, reason: "the store does not answer" })
      const waiting = yield* Effect.fork(check.pipe(Effect.provide(withStore({ ping: Effect.never }))))
      yield* TestClock.adjust("1999 millis")
      expect(waiting.unsafePoll()).toBeNull()
      yield* TestClock.adjust("1 millis")
      expect(yield* Fiber.join(waiting)).toEqual({ ready: false, reason: "the store did not answer within 2s" })
    }))
})

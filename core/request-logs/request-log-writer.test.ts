import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, Schedule } from "effect"
import { MerchantId } from "../shared/ids.js"
import { Instant } from "../shared/instant.js"
import { StorageError } from "../shared/storage-error.js"
import { layerTest as IdsTest } from "../signing/random-ids.js"
import { RequestLogRepository, type NewRequestLog } from "./request-log.js"
import { type AnsweredCall, RequestLogWriter } from "./request-log-writer.js"
import * as Writer from "./request-log-writer.js"

const call = (n: number): AnsweredCall => ({
  merchantId: MerchantId(1),
  environment: "sandbox",
  requestId: `request-${n}`,
  method: "POST",
  path: "/api/v1/initiate-payment",
  status: 200,
  durationMs: 3,
  idempotencyKey: null,
  error: null,
  requestBody: JSON.stringify({ n, client_secret: "s" }),
  responseBody: null,
  signatureCheck: null,
  createdAt: Instant(0n)
})

const repositoryOf = (record: (entries: ReadonlyArray<NewRequestLog>) => Effect.Effect<void, StorageError>) =>
  Layer.succeed(RequestLogRepository, RequestLogRepository.of({ record, list: () => Effect.die("not used"), find: () => Effect.die("not used"), purgeBefore: () => Effect.die("not used") }))

describe("request log writer", () => {
  it.effect("writes queued calls in batches, redacted, with ids; what is queued at shutdown is written too", () => {
    const batches: Array<ReadonlyArray<NewRequestLog>> = []
    return Effect.gen(function*() {
      const recording = repositoryOf((entries) => Effect.sync(() => void batches.push(entries)))
      yield* Effect.gen(function*() {
        const writer = yield* RequestLogWriter
        for (let n = 1; n <= 7; n++) yield* writer.keep(call(n))
      }).pipe(Effect.provide(Writer.layer({ batchSize: 3 }).pipe(Layer.provide(recording), Layer.provide(IdsTest()))))
      const written = batches.flat()
      expect(written.map((entry) => entry.requestId)).toEqual([1, 2, 3, 4, 5, 6, 7].map((n) => `request-${n}`))
      expect(batches.every((batch) => batch.length <= 3)).toBe(true)
      expect(written[0]!.id).toMatch(/^rl_[0-9a-f]{32}$/)
      expect(JSON.parse(written[0]!.requestBody!)).toEqual({ n: 1, client_secret: "[REDACTED]" })
    })
  })

  it.live("writes a batch as soon as it is full, without waiting out the gathering; a lone call once the gathering ends", () => {
    const batches: Array<ReadonlyArray<NewRequestLog>> = []
    const recording = repositoryOf((entries) => Effect.sync(() => void batches.push(entries)))
    const writtenCount = (count: number) =>
      Effect.repeat(Effect.sync(() => batches.flat().length), { until: (n) => n >= count, schedule: Schedule.spaced("5 millis") })
    // A day-long gathering: were a full batch to wait it out, this test would time out.
    const dayLong = Effect.gen(function*() {
      const writer = yield* RequestLogWriter
      yield* writer.keep(call(1))
      yield* Effect.sleep("20 millis") // the writer has taken the first call and gathers
      yield* writer.keep(call(2))
      yield* writer.keep(call(3))
      yield* writtenCount(3)
      expect(batches.map((batch) => batch.length)).toEqual([3])
    }).pipe(Effect.provide(Writer.layer({ batchSize: 3, gatherMillis: 86_400_000 }).pipe(Layer.provide(recording), Layer.provide(IdsTest()))))
    const short = Effect.gen(function*() {
      const writer = yield* RequestLogWriter
      yield* writer.keep(call(4))
      yield* writtenCount(4)
      expect(batches.map((batch) => batch.length)).toEqual([3, 1])
    }).pipe(Effect.provide(Writer.layer({ batchSize: 3, gatherMillis: 30 }).pipe(Layer.provide(recording), Layer.provide(IdsTest()))))
    return Effect.zipRight(dayLong, short)
  })

  it.effect("never fails or waits on a store that refuses the write", () =>
    Effect.gen(function*() {
      let tries = 0
      const failing = repositoryOf(() => Effect.suspend(() => (tries++, Effect.fail(new StorageError({ message: "disk full" })))))
      yield* Effect.gen(function*() {
        const writer = yield* RequestLogWriter
        yield* writer.keep(call(1))
        yield* writer.keep(call(2))
      }).pipe(Effect.provide(Writer.layer().pipe(Layer.provide(failing), Layer.provide(IdsTest()))))
      expect(tries).toBeGreaterThan(0)
    }))
})

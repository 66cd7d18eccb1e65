import { layer } from "@effect/vitest"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Ref from "effect/Ref"
import { describe, expect, it } from "vitest"
import { freshDatabase } from "../../conformance/storage/postgres-database.js"
import type { Gateway } from "../../core/gateways/gateway.js"
import { gatewayCallee } from "../../core/gateways/gateway-config.js"
import { GatewayPlugins, type HostedPlugin } from "../../core/gateways/gateway-plugin.js"
import { actsOutsideTheDatabase } from "../../core/shared/transaction-run.js"
import { SecretBox } from "../../core/signing/secret-box.js"
import * as PostgresStorage from "./postgres-storage.js"
import { MAX_RUNS, sqlStateOf } from "./serialization-retry.js"

const url = process.env["TEST_DATABASE_URL"]

/** A statement that fails with `sqlState` while `fail` holds, as a lost race or another error would. */
const raiseWhen = (sql: SqlClient.SqlClient, fail: boolean, sqlState: string) =>
  fail ? sql.unsafe(`DO $$ BEGIN RAISE EXCEPTION 'forced' USING ERRCODE = '${sqlState}'; END $$`) : Effect.void

/**
 * A fake gateway whose refund is counted: the plugin reached as every use case reaches one, through
 * gatewayCallee, and only the fields that path reads.
 */
const countingGateway = (refunds: Ref.Ref<number>) => {
  const plugin = { id: "counting", secretConfigKeys: [], parseConfig: (config: unknown) => Effect.succeed(config) } as unknown as HostedPlugin
  const gateway = { id: 1, code: "counting", name: "Counting", plugin: "counting", config: {} } as unknown as Gateway
  const refund = Effect.flatMap(gatewayCallee(gateway), () => Ref.update(refunds, (n) => n + 1)).pipe(
    Effect.provideService(GatewayPlugins, { get: () => Effect.succeed(plugin), list: [plugin] }),
    Effect.provideService(SecretBox, {} as SecretBox["Type"])
  )
  return refund
}

if (url === undefined || url === "") {
  console.warn("Serialization retry on PostgreSQL SKIPPED: TEST_DATABASE_URL is not set")
  describe.skip("serialization retry: postgres (TEST_DATABASE_URL not set)", () => {
    it("runs only with TEST_DATABASE_URL", () => {})
  })
} else {
  layer(freshDatabase(url, (databaseUrl) => PostgresStorage.clientLayer({ url: databaseUrl, poolSize: 2 })), { excludeTestServices: true, timeout: "60 seconds" })(
    "serialization retry: postgres",
    (it) => {
      it.effect("a transaction that fails with 40001 runs again from its start, and its second run commits", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE retried (run integer NOT NULL)`
          const runs = yield* Ref.make(0)
          const answer = yield* sql.withTransaction(Effect.gen(function*() {
            const run = yield* Ref.updateAndGet(runs, (n) => n + 1)
            yield* sql`INSERT INTO retried (run) VALUES (${run})`
            // A nested transaction is a savepoint: it leaves the retry to the outermost one.
            yield* sql.withTransaction(raiseWhen(sql, run === 1, "40001"))
            return run
          }))
          expect(answer).toBe(2)
          // The first run's insert was rolled back with it: only the second run's row is there.
          expect(yield* sql<{ readonly run: number }>`SELECT run FROM retried`).toEqual([{ run: 2 }])
        }))

      it.effect("a deadlock (40P01) is retried too; any other error is the answer at once, not retried", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const deadlocked = yield* Ref.make(0)
          yield* sql.withTransaction(Effect.flatMap(Ref.updateAndGet(deadlocked, (n) => n + 1), (run) => raiseWhen(sql, run === 1, "40P01")))
          expect(yield* Ref.get(deadlocked)).toBe(2)

          const refused = yield* Ref.make(0)
          const outcome = yield* sql.withTransaction(Effect.zipRight(Ref.update(refused, (n) => n + 1), raiseWhen(sql, true, "23505"))).pipe(Effect.either)
          expect(Either.isLeft(outcome) && sqlStateOf(outcome.left)).toBe("23505")
          expect(yield* Ref.get(refused)).toBe(1)
        }))

      it.effect("a transaction that called a gateway is never run again: the refund is sent once and the lost race is the answer", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE TABLE refunded (run integer NOT NULL)`
          const runs = yield* Ref.make(0)
          const refunds = yield* Ref.make(0)
          const refund = countingGateway(refunds)
          const outcome = yield* sql.withTransaction(Effect.gen(function*() {
            const run = yield* Ref.updateAndGet(runs, (n) => n + 1)
            yield* sql`INSERT INTO refunded (run) VALUES (${run})`
            yield* refund
            // Lost on every run: a retry would send the refund again before losing again.
            yield* raiseWhen(sql, true, "40001")
          })).pipe(Effect.either)
          expect(Either.isLeft(outcome) && sqlStateOf(outcome.left)).toBe("40001")
          expect(yield* Ref.get(refunds)).toBe(1)
          expect(yield* Ref.get(runs)).toBe(1)
          expect(yield* sql`SELECT run FROM refunded`).toEqual([])

          // The mark belongs to that run only: the next transaction, database work alone, is retried.
          const again = yield* Ref.make(0)
          yield* sql.withTransaction(Effect.flatMap(Ref.updateAndGet(again, (n) => n + 1), (run) => raiseWhen(sql, run === 1, "40001")))
          expect(yield* Ref.get(again)).toBe(2)
        }))

      it.effect("a step outside the database marks its run from a forked fiber and under a savepoint too", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          const runs = yield* Ref.make(0)
          const outcome = yield* sql.withTransaction(Effect.gen(function*() {
            yield* Ref.update(runs, (n) => n + 1)
            yield* sql.withTransaction(Effect.fork(actsOutsideTheDatabase).pipe(Effect.flatMap((fiber) => fiber.await)))
            yield* raiseWhen(sql, true, "40P01")
          })).pipe(Effect.either)
          expect(Either.isLeft(outcome) && sqlStateOf(outcome.left)).toBe("40P01")
          expect(yield* Ref.get(runs)).toBe(1)
        }))

      it.effect("a lone statement that loses a race is sent again; one that always loses gives up after MAX_RUNS runs", () =>
        Effect.gen(function*() {
          const sql = yield* SqlClient.SqlClient
          yield* sql`CREATE SEQUENCE lone_runs`
          // Fails with 40001 on its first run only: the sequence counts the runs and is not rolled back.
          const lone = (failingRuns: number) =>
            sql`DO $$ BEGIN IF nextval('lone_runs') <= ${sql.literal(String(failingRuns))} THEN RAISE EXCEPTION 'forced' USING ERRCODE = '40001'; END IF; END $$`
          yield* lone(1)
          expect(yield* sql<{ readonly runs: string }>`SELECT last_value::text AS runs FROM lone_runs`).toEqual([{ runs: "2" }])

          yield* sql`ALTER SEQUENCE lone_runs RESTART WITH 1`
          const givenUp = yield* Effect.either(lone(1_000))
          expect(Either.isLeft(givenUp) && sqlStateOf(givenUp.left)).toBe("40001")
          expect(yield* sql<{ readonly runs: string }>`SELECT last_value::text AS runs FROM lone_runs`).toEqual([{ runs: String(MAX_RUNS) }])
        }))
    }
  )
}

import * as SqlClient from "@effect/sql/SqlClient"
import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { now, plusSeconds } from "../../core/shared/instant.js"
import { SchedulerLease } from "../../core/subscriptions/scheduler-lease.js"
import { unique } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const LEASE_SECONDS = 60

interface SchemaObject {
  readonly name: string
}

/**
 * What migrations 0002 and 0024 must leave behind, read from the catalogue of the store's own dialect. Only a
 * store over @effect/sql has these tables; another adapter keeps its schema its own way.
 */
const migratedSchema = Effect.gen(function*() {
  const client = yield* Effect.serviceOption(SqlClient.SqlClient)
  if (Option.isNone(client)) return undefined
  const sql = client.value
  return yield* sql.onDialectOrElse({
    sqlite: () =>
      Effect.gen(function*() {
        const objects = yield* sql<SchemaObject>`SELECT name FROM sqlite_master
          WHERE name IN ('job_leases', 'subscriptions_wake', 'subscriptions_due') ORDER BY name`
        const columns = yield* sql<SchemaObject>`SELECT name FROM pragma_index_info('subscriptions_wake') ORDER BY seqno`
        // The scheduler's due query must be answered from the index, in its order, without a sort.
        const plan = yield* sql<{ readonly detail: string }>`EXPLAIN QUERY PLAN SELECT * FROM subscriptions
          WHERE wake_at IS NOT NULL AND wake_at <= ${0n} AND test_clock_id IS NULL ORDER BY wake_at, id LIMIT ${10}`
        return { objects: objects.map((o) => o.name), columns: columns.map((c) => c.name), plan: plan.map((p) => p.detail) }
      }),
    pg: () =>
      Effect.gen(function*() {
        const tables = yield* sql<SchemaObject>`SELECT tablename AS name FROM pg_tables
          WHERE schemaname = current_schema() AND tablename = 'job_leases'`
        const indexes = yield* sql<SchemaObject & { readonly indexdef: string }>`SELECT indexname AS name, indexdef FROM pg_indexes
          WHERE schemaname = current_schema() AND indexname IN ('subscriptions_wake', 'subscriptions_due') ORDER BY indexname`
        const definition = indexes.find((i) => i.name === "subscriptions_wake")?.indexdef ?? ""
        const columns = /USING \w+ \(([^)]*)\)/.exec(definition)?.[1]?.split(",").map((c) => c.trim()) ?? []
        return { objects: [...tables, ...indexes].map((o) => o.name).sort(), columns, plan: undefined }
      }),
    orElse: () => Effect.succeed(undefined)
  })
})

export const schedulerLeaseCases = (it: StorageIt) => {
  it.effect("scheduler lease: a free lease is taken; another holder is refused until it expires, then takes it over", () =>
    Effect.gen(function*() {
      const lease = yield* SchedulerLease
      const name = unique("lease")
      const [first, second] = [unique("host"), unique("host")]
      const at = yield* now
      const until = plusSeconds(at, LEASE_SECONDS)
      expect(yield* lease.acquire(name, first, at, until)).toBe(true)
      expect(yield* lease.acquire(name, second, at, plusSeconds(at, LEASE_SECONDS))).toBe(false)
      expect(yield* lease.acquire(name, second, plusSeconds(at, LEASE_SECONDS - 1), plusSeconds(at, 2 * LEASE_SECONDS))).toBe(false)
      // Expired exactly at its end: the next tick must not wait a further instant for a dead host.
      expect(yield* lease.acquire(name, second, until, plusSeconds(until, LEASE_SECONDS))).toBe(true)
      // The first holder, back late, no longer holds it and cannot take it back while unexpired.
      expect(yield* lease.acquire(name, first, until, plusSeconds(until, LEASE_SECONDS))).toBe(false)
    }))

  it.effect("scheduler lease: the holder extends its own lease, and the extension is what others see", () =>
    Effect.gen(function*() {
      const lease = yield* SchedulerLease
      const name = unique("lease")
      const [holder, other] = [unique("host"), unique("host")]
      const at = yield* now
      expect(yield* lease.acquire(name, holder, at, plusSeconds(at, LEASE_SECONDS))).toBe(true)
      const later = plusSeconds(at, LEASE_SECONDS - 5)
      expect(yield* lease.acquire(name, holder, later, plusSeconds(later, LEASE_SECONDS))).toBe(true)
      // Past the first expiry but inside the extension: still held.
      expect(yield* lease.acquire(name, other, plusSeconds(at, LEASE_SECONDS + 1), plusSeconds(at, 3 * LEASE_SECONDS))).toBe(false)
      expect(yield* lease.acquire(name, other, plusSeconds(later, LEASE_SECONDS), plusSeconds(later, 2 * LEASE_SECONDS))).toBe(true)
    }))

  it.effect("scheduler lease: release frees it for another at once; release by a non-holder does nothing", () =>
    Effect.gen(function*() {
      const lease = yield* SchedulerLease
      const name = unique("lease")
      const [holder, other, third] = [unique("host"), unique("host"), unique("host")]
      const at = yield* now
      const until = plusSeconds(at, LEASE_SECONDS)
      expect(yield* lease.acquire(name, holder, at, until)).toBe(true)
      yield* lease.release(name, other)
      expect(yield* lease.acquire(name, other, at, until)).toBe(false)
      yield* lease.release(name, holder)
      expect(yield* lease.acquire(name, other, at, until)).toBe(true)
      expect(yield* lease.acquire(name, third, at, until)).toBe(false)
      // Releasing a name nobody holds, or one's own twice, is not an error.
      yield* lease.release(name, holder)
      yield* lease.release(unique("lease"), holder)
    }))

  it.effect("scheduler lease: leases of different names are independent", () =>
    Effect.gen(function*() {
      const lease = yield* SchedulerLease
      const [a, b] = [unique("lease"), unique("lease")]
      const [first, second] = [unique("host"), unique("host")]
      const at = yield* now
      const until = plusSeconds(at, LEASE_SECONDS)
      expect(yield* lease.acquire(a, first, at, until)).toBe(true)
      expect(yield* lease.acquire(b, second, at, until)).toBe(true)
      yield* lease.release(b, first)
      expect(yield* lease.acquire(a, second, at, until)).toBe(false)
    }))

  it.effect("scheduler lease: 20 concurrent acquires by distinct holders, exactly one wins", () =>
    Effect.gen(function*() {
      const lease = yield* SchedulerLease
      const name = unique("lease")
      const holders = Array.from({ length: 20 }, () => unique("host"))
      const at = yield* now
      const until = plusSeconds(at, LEASE_SECONDS)
      const won = yield* Effect.all(holders.map((holder) => lease.acquire(name, holder, at, until)), { concurrency: "unbounded" })
      expect(won.filter((taken) => taken).length).toBe(1)
      // And the winner is the holder the store kept: it alone can extend.
      const winner = holders[won.indexOf(true)]!
      const again = yield* Effect.all(holders.map((holder) => lease.acquire(name, holder, at, until)), { concurrency: "unbounded" })
      expect(again.map((taken, i) => taken === (holders[i] === winner))).toEqual(holders.map(() => true))
    }))

  it.effect("migrations 0002 and 0024: job_leases and the wake index exist, the old due indexes are gone", () =>
    Effect.gen(function*() {
      const schema = yield* migratedSchema
      if (schema === undefined) return
      expect(schema.objects).toEqual(["job_leases", "subscriptions_wake"])
      expect(schema.columns).toEqual(["wake_at", "id"])
      if (schema.plan !== undefined) {
        expect(schema.plan.join("\n")).toMatch(/USING (COVERING )?INDEX subscriptions_wake /)
        expect(schema.plan.join("\n")).not.toContain("TEMP B-TREE")
      }
    }))
}

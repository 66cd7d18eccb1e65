import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { RateLimitCounters } from "../../core/rate-limit/rate-limit-counters.js"
import { SafeInt } from "./columns.js"
import { dbCall } from "./query.js"
import type { CounterAddition } from "../../core/rate-limit/rate-limit-counters.js"

const decodeHits = Schema.decodeUnknown(Schema.Struct({ hits: SafeInt }))
const decodeTotals = Schema.decodeUnknown(Schema.Array(Schema.Struct({ counter_key: Schema.String, window_start: SafeInt, hits: SafeInt })))

/** Rows per statement: three parameters each keeps a statement far below either store's bound on parameters. */
export const ADD_ALL_CHUNK = 200

const windowId = (key: string, windowStartSeconds: number) => `${windowStartSeconds}|${key}`

export const layer = Layer.effect(
  RateLimitCounters,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return RateLimitCounters.of({
      // One atomic upsert: concurrent additions from several hosts each see a distinct total.
      add: (key, windowStartSeconds, requests) =>
        sql`INSERT INTO rate_limit_counters (counter_key, window_start, hits) VALUES (${key}, ${windowStartSeconds}, ${requests})
            ON CONFLICT (counter_key, window_start) DO UPDATE SET hits = rate_limit_counters.hits + excluded.hits
            RETURNING hits`.pipe(
          Effect.flatMap((rows) => decodeHits(rows[0])),
          Effect.map((row) => row.hits),
          dbCall
        ),
      addAll: (additions) => {
        if (additions.length === 0) return Effect.succeed([])
        // One multi-row upsert per chunk; RETURNING's row order is not promised, so totals are matched by key.
        const upsert = (chunk: ReadonlyArray<CounterAddition>) =>
          sql`INSERT INTO rate_limit_counters ${
            sql.insert(chunk.map((a) => ({ counter_key: a.key, window_start: a.windowStartSeconds, hits: a.requests })))
          } ON CONFLICT (counter_key, window_start) DO UPDATE SET hits = rate_limit_counters.hits + excluded.hits
            RETURNING counter_key, window_start, hits`.pipe(Effect.flatMap(decodeTotals))
        const chunks: Array<ReadonlyArray<CounterAddition>> = []
        for (let i = 0; i < additions.length; i += ADD_ALL_CHUNK) chunks.push(additions.slice(i, i + ADD_ALL_CHUNK))
        const all = Effect.forEach(chunks, upsert)
        // Several chunks share one transaction: all or nothing, and on SQLite still one commit.
        return (chunks.length === 1 ? all : sql.withTransaction(all)).pipe(
          Effect.map((results) => {
            const totals = new Map<string, number>()
            for (const rows of results) for (const row of rows) totals.set(windowId(row.counter_key, row.window_start), row.hits)
            return additions.map((a) => totals.get(windowId(a.key, a.windowStartSeconds)) ?? 0)
          }),
          dbCall
        )
      },
      purgeBefore: (windowStartSeconds) =>
        sql`DELETE FROM rate_limit_counters WHERE window_start < ${windowStartSeconds} RETURNING counter_key`.pipe(
          Effect.map((rows) => rows.length),
          dbCall
        )
    })
  })
)

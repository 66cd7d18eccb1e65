import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { RateLimitCounters } from "../../core/rate-limit/rate-limit-counters.js"
import { SafeInt } from "./columns.js"
import { dbCall } from "./query.js"

const decodeHits = Schema.decodeUnknown(Schema.Struct({ hits: SafeInt }))

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
      purgeBefore: (windowStartSeconds) =>
        sql`DELETE FROM rate_limit_counters WHERE window_start < ${windowStartSeconds} RETURNING counter_key`.pipe(
          Effect.map((rows) => rows.length),
          dbCall
        )
    })
  })
)

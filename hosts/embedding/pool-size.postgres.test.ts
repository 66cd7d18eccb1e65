import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { createThrowawayDatabase } from "../../conformance/support/throwaway-postgres.js"
import { storageLayer } from "../kit-layer.js"
import { readHostConfig } from "./host-config.js"

const baseUrl = process.env["TEST_DATABASE_URL"]

/**
 * Holds `count` connections of the store the host's settings name at once, and asks the server how
 * many sessions the pool has open; a pool too small to lend them all within 3 s says so instead.
 */
const holdAtOnce = (env: NodeJS.ProcessEnv, count: number): Promise<number | "not lent"> =>
  Effect.runPromise(Effect.scoped(Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const held = yield* Effect.all(Array.from({ length: count }, () => sql.reserve), { concurrency: "unbounded" }).pipe(
      Effect.timeoutTo({ duration: "3 seconds", onTimeout: () => undefined, onSuccess: (connections) => connections }),
      Effect.orElseSucceed(() => undefined)
    )
    if (held === undefined) return "not lent" as const
    const rows = yield* held[0]!.execute(
      "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name = 'merchant-payments'",
      [],
      undefined
    )
    return Number(rows[0]["n"])
  })).pipe(Effect.provide(storageLayer(readHostConfig(env).store))))

describe.skipIf(baseUrl === undefined || baseUrl === "")("DATABASE_POOL_SIZE reaches the PostgreSQL pool", () => {
  it("with DATABASE_POOL_SIZE=12 twelve connections are held at once; the default pool lends no eleventh", async () => {
    const database = await createThrowawayDatabase(baseUrl!)
    try {
      expect(await holdAtOnce({ DATABASE_URL: database.url, DATABASE_POOL_SIZE: "12" }, 12)).toBe(12)
      expect(await holdAtOnce({ DATABASE_URL: database.url }, 10)).toBe(10)
      expect(await holdAtOnce({ DATABASE_URL: database.url }, 11)).toBe("not lent")
    } finally {
      await database.drop()
    }
  }, 60_000)
})

import { Effect, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { createThrowawayDatabase } from "../../conformance/support/throwaway-postgres.js"
import * as PostgresStorage from "./postgres-storage.js"

const baseUrl = process.env["TEST_DATABASE_URL"]

/** Several hosts starting at once on a new database: each migrates, none fails, the schema is applied once. */
describe.skipIf(baseUrl === undefined || baseUrl === "")("first start of several hosts on an empty postgres", () => {
  it("three hosts migrating one empty database at the same moment all start, five times over", async () => {
    for (let round = 0; round < 5; round++) {
      const database = await createThrowawayDatabase(baseUrl!)
      try {
        const start = () => Effect.runPromise(Effect.scoped(Layer.build(PostgresStorage.clientLayer({ url: database.url, poolSize: 2 }))).pipe(Effect.as("started")))
        const outcomes = await Promise.allSettled([start(), start(), start()])
        expect(outcomes.map((outcome) => outcome.status === "fulfilled" ? outcome.value : String(outcome.reason))).toEqual(["started", "started", "started"])
      } finally {
        await database.drop()
      }
    }
  }, 60_000)
})

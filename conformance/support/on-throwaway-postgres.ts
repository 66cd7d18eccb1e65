import { afterAll, beforeAll, describe, it } from "vitest"
import { createThrowawayDatabase, type ThrowawayDatabase } from "./throwaway-postgres.js"

/**
 * Registers a suite on a fresh PostgreSQL database when TEST_DATABASE_URL is set, and a plainly
 * named skip otherwise (CI fails when a suite whose name mentions postgres did not run). The
 * database exists before the suite's own hooks run and is dropped after them.
 */
export const onThrowawayPostgres = (suiteName: string, register: (databaseUrl: () => string) => void): void => {
  const baseUrl = process.env["TEST_DATABASE_URL"]
  if (baseUrl === undefined || baseUrl === "") {
    console.warn(`${suiteName} on PostgreSQL SKIPPED: TEST_DATABASE_URL is not set`)
    describe.skip(`${suiteName}: postgres (TEST_DATABASE_URL not set)`, () => {
      it("runs only with TEST_DATABASE_URL", () => {})
    })
    return
  }
  let database: ThrowawayDatabase | undefined
  beforeAll(async () => {
    database = await createThrowawayDatabase(baseUrl)
  })
  afterAll(() => database?.drop())
  register(() => {
    if (database === undefined) throw new Error("the throw-away database was not created")
    return database.url
  })
}

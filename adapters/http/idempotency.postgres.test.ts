import { afterAll, beforeAll, describe, it } from "vitest"
import { createThrowawayDatabase, type ThrowawayDatabase } from "../../conformance/support/throwaway-postgres.js"
import { idempotencySuite } from "./idempotency-suite.js"

const baseUrl = process.env["TEST_DATABASE_URL"]

if (baseUrl === undefined || baseUrl === "") {
  console.warn("PostgreSQL idempotency suite SKIPPED: TEST_DATABASE_URL is not set")
  describe.skip("Idempotency-Key on POST: postgres (TEST_DATABASE_URL not set)", () => {
    it("runs only with TEST_DATABASE_URL", () => {})
  })
} else {
  // File-level hooks run around the suite's own: the database exists before its host starts and
  // is dropped after the host has closed its pool.
  let database: ThrowawayDatabase | undefined
  beforeAll(async () => {
    database = await createThrowawayDatabase(baseUrl)
  })
  afterAll(() => database?.drop())
  idempotencySuite("postgres", () => ({ kind: "postgres", url: database!.url }))
}

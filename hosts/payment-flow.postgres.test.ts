import { afterAll, beforeAll, describe, it } from "vitest"
import { createThrowawayDatabase, type ThrowawayDatabase } from "../conformance/support/throwaway-postgres.js"
import { paymentFlowSuite } from "./payment-flow-suite.js"

const baseUrl = process.env["TEST_DATABASE_URL"]

if (baseUrl === undefined || baseUrl === "") {
  console.warn("PostgreSQL payment completion suite SKIPPED: TEST_DATABASE_URL is not set")
  describe.skip("payment completion: postgres (TEST_DATABASE_URL not set)", () => {
    it("runs only with TEST_DATABASE_URL", () => {})
  })
} else {
  let database: ThrowawayDatabase | undefined
  beforeAll(async () => {
    database = await createThrowawayDatabase(baseUrl)
  })
  afterAll(() => database?.drop())
  paymentFlowSuite("postgres", () => ({ kind: "postgres", url: database!.url }))
}

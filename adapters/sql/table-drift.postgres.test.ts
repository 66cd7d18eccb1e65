import { describe, it } from "vitest"
import { freshDatabase } from "../../conformance/storage/postgres-database.js"
import * as PostgresStorage from "../postgres/postgres-storage.js"
import { tableDrift } from "./testing/table-drift.js"

const url = process.env["TEST_DATABASE_URL"]

if (url === undefined || url === "") {
  console.warn("table drift on PostgreSQL SKIPPED: TEST_DATABASE_URL is not set")
  describe.skip("tables and their row schemas: postgres (TEST_DATABASE_URL not set)", () => {
    it("runs only with TEST_DATABASE_URL", () => {})
  })
} else {
  tableDrift("postgres", freshDatabase(url, (databaseUrl) => PostgresStorage.clientLayer({ url: databaseUrl })))
}

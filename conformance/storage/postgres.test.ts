import { describe, it } from "vitest"
import * as PostgresStorage from "../../adapters/postgres/postgres-storage.js"
import { freshDatabase } from "./postgres-database.js"
import { storageConformance } from "./suite.js"

const url = process.env["TEST_DATABASE_URL"]

if (url === undefined || url === "") {
  // Said plainly so a green run without PostgreSQL is never mistaken for a tested one; .ci/run
  // sets TEST_DATABASE_URL and fails when this suite did not run.
  console.warn("PostgreSQL storage conformance SKIPPED: TEST_DATABASE_URL is not set")
  describe.skip("storage conformance: postgres (TEST_DATABASE_URL not set)", () => {
    it("runs only with TEST_DATABASE_URL", () => {})
  })
} else {
  storageConformance("postgres", freshDatabase(url, (databaseUrl) => PostgresStorage.layer({ url: databaseUrl })))
}

import { PgClient } from "@effect/sql-pg"
import * as Redacted from "effect/Redacted"
import { describe, it } from "vitest"
import { freshDatabase } from "../../../conformance/storage/postgres-database.js"
import { invoiceNumbersMigration } from "../testing/invoice-numbers-migration.js"

const url = process.env["TEST_DATABASE_URL"]

if (url === undefined || url === "") {
  console.warn("migration 0029 on PostgreSQL SKIPPED: TEST_DATABASE_URL is not set")
  describe.skip("migration 0029: postgres (TEST_DATABASE_URL not set)", () => {
    it("runs only with TEST_DATABASE_URL", () => {})
  })
} else {
  invoiceNumbersMigration("postgres", freshDatabase(url, (databaseUrl) => PgClient.layer({ url: Redacted.make(databaseUrl) })))
}

import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { invoiceNumbersMigration } from "../testing/invoice-numbers-migration.js"

invoiceNumbersMigration("sqlite", SqliteClient.layer({ filename: join(mkdtempSync(join(tmpdir(), "mp-invoice-numbers-")), "store.db") }))

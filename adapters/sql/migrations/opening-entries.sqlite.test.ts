import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqliteClient } from "@effect/sql-sqlite-node"
import { openingEntries } from "../testing/opening-entries.js"

openingEntries("sqlite", SqliteClient.layer({ filename: join(mkdtempSync(join(tmpdir(), "mp-opening-")), "store.db") }))

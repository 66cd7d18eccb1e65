import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as SqliteStorage from "../sqlite/sqlite-storage.js"
import { tableDrift } from "./testing/table-drift.js"

tableDrift("sqlite", SqliteStorage.clientLayer({ filename: join(mkdtempSync(join(tmpdir(), "mp-tables-")), "store.db") }))

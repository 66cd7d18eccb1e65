import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as SqliteStorage from "../../adapters/sqlite/sqlite-storage.js"
import { storageConformance } from "./suite.js"

// A real file, not :memory:, so WAL, sync and the busy timeout are exercised as in production.
const directory = mkdtempSync(join(tmpdir(), "mp-storage-"))
storageConformance("sqlite", SqliteStorage.layer({ filename: join(directory, "store.db") }))

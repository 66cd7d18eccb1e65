import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { idempotencySuite } from "./suites/idempotency-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-idempotency-"))
idempotencySuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

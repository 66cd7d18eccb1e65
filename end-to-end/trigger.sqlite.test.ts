import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { triggerSuite } from "./suites/trigger-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-trigger-"))
triggerSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

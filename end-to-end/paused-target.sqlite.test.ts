import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { pausedTargetSuite } from "./suites/paused-target-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-paused-"))
pausedTargetSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { disputeSuite } from "./suites/dispute-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-disputes-"))
disputeSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

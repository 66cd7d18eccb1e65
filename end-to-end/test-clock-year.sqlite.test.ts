import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { testClockYearSuite } from "./suites/test-clock-year-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-test-clock-year-"))
testClockYearSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

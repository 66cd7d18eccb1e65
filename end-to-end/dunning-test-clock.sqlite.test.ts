import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { dunningTestClockSuite } from "./suites/dunning-test-clock-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-dunning-clock-"))
dunningTestClockSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

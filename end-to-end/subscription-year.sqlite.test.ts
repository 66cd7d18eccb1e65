import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { subscriptionYearSuite } from "./suites/subscription-year-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-subscription-year-"))
subscriptionYearSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

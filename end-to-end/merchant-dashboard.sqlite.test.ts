import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { merchantDashboardSuite } from "./suites/merchant-dashboard-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-dashboard-"))
merchantDashboardSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

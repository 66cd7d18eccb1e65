import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { requestLogSuite } from "./suites/request-log-suite.js"

requestLogSuite("SQLite", () => ({ kind: "sqlite", filename: join(mkdtempSync(join(tmpdir(), "mp-request-logs-")), "store.db") }))

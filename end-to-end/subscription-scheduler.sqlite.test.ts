import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { subscriptionSchedulerSuite } from "./suites/subscription-scheduler-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-subscription-scheduler-"))
subscriptionSchedulerSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

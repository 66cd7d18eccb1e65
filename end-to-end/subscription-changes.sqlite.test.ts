import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { subscriptionChangesSuite } from "./suites/subscription-changes-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-subscription-changes-"))
subscriptionChangesSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

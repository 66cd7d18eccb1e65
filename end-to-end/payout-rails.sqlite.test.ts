import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { payoutRailSuite } from "./suites/payout-rail-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-payout-rails-"))
payoutRailSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

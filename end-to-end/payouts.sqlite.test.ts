import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { payoutSuite } from "./suites/payout-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-payouts-"))
payoutSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

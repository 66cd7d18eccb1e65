import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { payoutDestinationSuite } from "./suites/payout-destination-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-payout-destinations-"))
payoutDestinationSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

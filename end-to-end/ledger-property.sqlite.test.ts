import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ledgerPropertySuite } from "./suites/ledger-property-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-ledger-property-"))
ledgerPropertySuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

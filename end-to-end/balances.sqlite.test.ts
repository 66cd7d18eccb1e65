import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { balanceSuite } from "./suites/balance-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-balances-"))
balanceSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

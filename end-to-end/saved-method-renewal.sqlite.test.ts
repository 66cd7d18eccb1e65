import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { savedMethodRenewalSuite } from "./suites/saved-method-renewal-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-saved-method-renewal-"))
savedMethodRenewalSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

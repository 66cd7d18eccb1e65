import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { customerPortalSuite } from "./suites/customer-portal-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-customer-portal-"))
customerPortalSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

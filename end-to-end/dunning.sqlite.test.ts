import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { dunningSuite } from "./suites/dunning-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-dunning-"))
dunningSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

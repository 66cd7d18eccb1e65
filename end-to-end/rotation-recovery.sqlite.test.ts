import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { rotationRecoverySuite } from "./suites/rotation-recovery-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-rotation-"))
rotationRecoverySuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

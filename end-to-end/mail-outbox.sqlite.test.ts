import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { mailOutboxSuite } from "./suites/mail-outbox-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-mail-"))
mailOutboxSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }), () => ({ kind: "sqlite", filename: join(directory, "quiet.db") }))

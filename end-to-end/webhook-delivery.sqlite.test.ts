import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { webhookDeliverySuite } from "./suites/webhook-delivery-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-webhooks-"))
webhookDeliverySuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

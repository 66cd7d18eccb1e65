import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { webhookEndpointSuite } from "./suites/webhook-endpoint-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-webhook-endpoints-"))
webhookEndpointSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

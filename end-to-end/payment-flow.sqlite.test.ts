import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { paymentFlowSuite } from "./suites/payment-flow-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-payment-flow-"))
paymentFlowSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "store.db") }))

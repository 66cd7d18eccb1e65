import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { gatewayRefundExecutorSuite } from "./suites/gateway-refund-executor-suite.js"
import { sourceRefundSuite } from "./suites/source-refund-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-gateway-refunds-"))
sourceRefundSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "source-refunds.db") }))
gatewayRefundExecutorSuite("SQLite", () => ({ kind: "sqlite", filename: join(directory, "executor.db") }))

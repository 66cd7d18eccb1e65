import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { moneyOutWalkthroughSuite } from "./suites/money-out-walkthrough-suite.js"

moneyOutWalkthroughSuite("SQLite", () => `sqlite:${join(mkdtempSync(join(tmpdir(), "mp-money-out-")), "payments.db")}`)

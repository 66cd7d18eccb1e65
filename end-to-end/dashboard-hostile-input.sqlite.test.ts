import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { dashboardHostileSuite } from "./suites/dashboard-hostile-suite.js"

const directory = mkdtempSync(join(tmpdir(), "mp-dashboard-hostile-"))
dashboardHostileSuite("SQLite", { database: () => `sqlite:${join(directory, "root.db")}`, basePath: "" })
dashboardHostileSuite("SQLite, mounted under /payments", { database: () => `sqlite:${join(directory, "mounted.db")}`, basePath: "/payments" })

import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { dashboardHostileSuite } from "./suites/dashboard-hostile-suite.js"

onThrowawayPostgres("dashboard pages with hostile input", (url) =>
  dashboardHostileSuite("postgres, mounted under /payments", { database: url, basePath: "/payments" }))

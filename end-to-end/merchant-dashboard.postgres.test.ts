import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { merchantDashboardSuite } from "./suites/merchant-dashboard-suite.js"

onThrowawayPostgres("merchant dashboard", (url) => merchantDashboardSuite("postgres", () => ({ kind: "postgres", url: url() })))

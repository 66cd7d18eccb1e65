import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { testClockYearSuite } from "./suites/test-clock-year-suite.js"

onThrowawayPostgres("test clocks, a year of a monthly subscription", (url) => testClockYearSuite("PostgreSQL", () => ({ kind: "postgres", url: url() })))

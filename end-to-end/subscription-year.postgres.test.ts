import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { subscriptionYearSuite } from "./suites/subscription-year-suite.js"

onThrowawayPostgres("a year of a monthly subscription", (url) => subscriptionYearSuite("PostgreSQL", () => ({ kind: "postgres", url: url() })))

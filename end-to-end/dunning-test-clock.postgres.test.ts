import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { dunningTestClockSuite } from "./suites/dunning-test-clock-suite.js"

onThrowawayPostgres("dunning under a test clock", (url) => dunningTestClockSuite("PostgreSQL", () => ({ kind: "postgres", url: url() })))

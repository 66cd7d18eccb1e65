import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { triggerSuite } from "./suites/trigger-suite.js"

onThrowawayPostgres("sandbox triggers", (url) => triggerSuite("PostgreSQL", () => ({ kind: "postgres", url: url() })))

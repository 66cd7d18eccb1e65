import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { idempotencySuite } from "./suites/idempotency-suite.js"

onThrowawayPostgres("Idempotency-Key on POST", (url) => idempotencySuite("postgres", () => ({ kind: "postgres", url: url() }), { sharedByHosts: true }))

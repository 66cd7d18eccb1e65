import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { savedMethodRenewalSuite } from "./suites/saved-method-renewal-suite.js"

onThrowawayPostgres("a saved card renewing automatically", (url) => savedMethodRenewalSuite("PostgreSQL", () => ({ kind: "postgres", url: url() })))

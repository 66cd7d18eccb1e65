import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { ledgerPropertySuite } from "./suites/ledger-property-suite.js"

onThrowawayPostgres("ledger property", (url) => ledgerPropertySuite("postgres", () => ({ kind: "postgres", url: url() })))

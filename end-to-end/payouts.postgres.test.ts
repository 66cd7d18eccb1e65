import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { payoutSuite } from "./suites/payout-suite.js"

onThrowawayPostgres("payouts over HTTP", (url) => payoutSuite("postgres", () => ({ kind: "postgres", url: url() })))

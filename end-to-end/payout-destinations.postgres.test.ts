import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { payoutDestinationSuite } from "./suites/payout-destination-suite.js"

onThrowawayPostgres("payout destinations over HTTP", (url) => payoutDestinationSuite("postgres", () => ({ kind: "postgres", url: url() })))

import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { payoutRailSuite } from "./suites/payout-rail-suite.js"

onThrowawayPostgres("payout rails over HTTP", (url) => payoutRailSuite("postgres", () => ({ kind: "postgres", url: url() })))

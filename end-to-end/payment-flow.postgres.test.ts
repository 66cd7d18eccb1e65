import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { paymentFlowSuite } from "./suites/payment-flow-suite.js"

onThrowawayPostgres("payment completion", (url) => paymentFlowSuite("postgres", () => ({ kind: "postgres", url: url() })))

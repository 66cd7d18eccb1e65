import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { gatewayRefundExecutorSuite } from "./suites/gateway-refund-executor-suite.js"
import { sourceRefundSuite } from "./suites/source-refund-suite.js"

onThrowawayPostgres("refunds to the source", (url) => sourceRefundSuite("postgres", () => ({ kind: "postgres", url: url() })))
onThrowawayPostgres("gateway refund executor", (url) => gatewayRefundExecutorSuite("postgres", () => ({ kind: "postgres", url: url() })))

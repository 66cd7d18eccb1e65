import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { requestLogSuite } from "./suites/request-log-suite.js"

onThrowawayPostgres("request logs", (url) => requestLogSuite("postgres", () => ({ kind: "postgres", url: url() })))

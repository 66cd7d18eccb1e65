import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { subscriptionChangesSuite } from "./suites/subscription-changes-suite.js"

onThrowawayPostgres("subscription changes", (url) =>
  subscriptionChangesSuite("PostgreSQL", () => ({ kind: "postgres", url: url() })))

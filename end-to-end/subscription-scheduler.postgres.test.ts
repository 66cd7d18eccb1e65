import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { subscriptionSchedulerSuite } from "./suites/subscription-scheduler-suite.js"

onThrowawayPostgres("subscription scheduler across hosts", (url) =>
  subscriptionSchedulerSuite("PostgreSQL", () => ({ kind: "postgres", url: url() }), { twoHosts: true }))

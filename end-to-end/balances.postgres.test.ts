import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { balanceSuite } from "./suites/balance-suite.js"

onThrowawayPostgres("balances and automatic payouts across hosts", (url) =>
  balanceSuite("PostgreSQL", () => ({ kind: "postgres", url: url() }), { twoHosts: true }))

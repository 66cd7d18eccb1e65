import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { moneyOutWalkthroughSuite } from "./suites/money-out-walkthrough-suite.js"

onThrowawayPostgres("money out, walked through from outside", (url) => moneyOutWalkthroughSuite("PostgreSQL", url))

import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { customerPortalSuite } from "./suites/customer-portal-suite.js"

onThrowawayPostgres("customer portal", (url) => customerPortalSuite("PostgreSQL", () => ({ kind: "postgres", url: url() })))

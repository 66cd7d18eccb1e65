import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { disputeSuite } from "./suites/dispute-suite.js"

onThrowawayPostgres("disputes over HTTP", (url) => disputeSuite("postgres", () => ({ kind: "postgres", url: url() })))

import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { dunningSuite } from "./suites/dunning-suite.js"

onThrowawayPostgres("dunning over HTTP", (url) => dunningSuite("PostgreSQL", () => ({ kind: "postgres", url: url() })))

import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { pausedTargetSuite } from "./suites/paused-target-suite.js"

onThrowawayPostgres("paused webhook targets", (url) => pausedTargetSuite("postgres", () => ({ kind: "postgres", url: url() })))

import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { rotationRecoverySuite } from "./suites/rotation-recovery-suite.js"

onThrowawayPostgres("rotation and recovery", (url) => rotationRecoverySuite("postgres", () => ({ kind: "postgres", url: url() })))

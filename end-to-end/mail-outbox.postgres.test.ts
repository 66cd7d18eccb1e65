import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { mailOutboxSuite } from "./suites/mail-outbox-suite.js"

// Both kits on one throw-away database: the quiet one's merchant is its own.
onThrowawayPostgres("mail outbox", (url) => mailOutboxSuite("postgres", () => ({ kind: "postgres", url: url() }), () => ({ kind: "postgres", url: url() })))

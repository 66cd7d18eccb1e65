import { onThrowawayPostgres } from "../conformance/support/on-throwaway-postgres.js"
import { cliListenSuite } from "./suites/cli-listen-suite.js"

onThrowawayPostgres("merchant-payments listen", (url) => cliListenSuite(() => ({ DATABASE_URL: url(), MASTER_KEY: "ab".repeat(32), ADMIN_TOKEN: "listen-admin-token" })))

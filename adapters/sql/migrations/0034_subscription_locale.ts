import { runDdl } from "./dialect-ddl.js"

/**
 * The language of a subscription's customer mail (issue 36): one of the checkout's languages, or
 * null for English. Read with the row; no index of its own.
 */
export default runDdl([
  `ALTER TABLE subscriptions ADD COLUMN locale TEXT`
])

import { runDdl } from "./dialect-ddl.js"

/**
 * Named leases that keep periodic jobs from overlapping across hosts, and an index that fits the
 * scheduler's due query (`next_billing_at <= now ORDER BY next_billing_at, id`). That query no
 * longer filters on status, and an index that leads with status (0001's subscriptions_due) cannot
 * be sought by next_billing_at alone; it would only cost every write, so it goes.
 */
export default runDdl([
  `CREATE TABLE job_leases (
    name TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires_at BIGINT NOT NULL
  )`,
  `CREATE INDEX subscriptions_next_billing ON subscriptions (next_billing_at, id)`,
  `DROP INDEX subscriptions_due`
])

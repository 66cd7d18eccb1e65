import { runDdl } from "./dialect-ddl.js"

/**
 * Payout rails. A payout names the rail that carries it (set when an operator approves it) and when
 * it was approved, which is the day the manual rail's file lists it under. A destination of another
 * type than a bank account (a Stripe connected account) keeps its account id; the bank-only columns
 * of 0016 hold '' for it (SQLite cannot drop a NOT NULL without rebuilding a table payouts reference).
 */
export default runDdl([
  `ALTER TABLE payouts ADD COLUMN rail TEXT`,
  `ALTER TABLE payouts ADD COLUMN approved_at BIGINT`,
  // The manual rail's daily file: approved payouts by the time they were approved.
  `CREATE INDEX payouts_by_approval ON payouts (status, approved_at)`,
  `ALTER TABLE payout_destinations ADD COLUMN account_id TEXT`
])

import { runDdl } from "./dialect-ddl.js"

/**
 * Payouts: money a merchant asked to move from its wallet to one of its destinations. The wallet
 * debit and its journal entry are written in the same transaction as the row (core/payouts), so
 * wallets.balance's CHECK (>= 0) is what refuses a payout beyond the balance, whichever host asks.
 */
export default runDdl([
  `CREATE TABLE payouts (
    id TEXT PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    currency TEXT NOT NULL,
    amount BIGINT NOT NULL CHECK (amount > 0),
    destination_id TEXT NOT NULL REFERENCES payout_destinations (id),
    status TEXT NOT NULL,
    reason TEXT,
    reference TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  )`,
  // The merchant's list, newest first; the operator's list by status.
  `CREATE INDEX payouts_by_merchant ON payouts (merchant_id, environment, created_at, id)`,
  `CREATE INDEX payouts_by_status ON payouts (status, created_at, id)`
])

import { runDdl } from "./dialect-ddl.js"

/**
 * Balances that say what can leave (core/balances): each merchant's payout settings (no row: the
 * defaults), the rolling reserve's holds (one per payment, released once), and the automatic payouts
 * made, one per merchant, environment, currency and period under the primary key, whichever host
 * ticked.
 */
export default runDdl([
  `CREATE TABLE payout_settings (
    merchant_id BIGINT PRIMARY KEY REFERENCES merchants (id),
    payout_delay_days BIGINT CHECK (payout_delay_days >= 0),
    reserve_percent BIGINT NOT NULL CHECK (reserve_percent >= 0 AND reserve_percent <= 10000000000),
    reserve_days BIGINT NOT NULL CHECK (reserve_days >= 0),
    payout_schedule TEXT NOT NULL,
    payout_minimum BIGINT NOT NULL CHECK (payout_minimum >= 0),
    updated_at BIGINT NOT NULL
  )`,
  `CREATE TABLE reserve_holds (
    id {{id}},
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    currency TEXT NOT NULL,
    wallet_id BIGINT NOT NULL REFERENCES wallets (id),
    reference TEXT NOT NULL UNIQUE,
    amount BIGINT NOT NULL CHECK (amount > 0),
    held_at BIGINT NOT NULL,
    release_at BIGINT NOT NULL,
    released_at BIGINT
  )`,
  // The scheduler's due holds; a book's reserved total.
  `CREATE INDEX reserve_holds_due ON reserve_holds (release_at) WHERE released_at IS NULL`,
  `CREATE INDEX reserve_holds_book ON reserve_holds (merchant_id, environment, currency) WHERE released_at IS NULL`,
  `CREATE TABLE automatic_payouts (
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    currency TEXT NOT NULL,
    period TEXT NOT NULL,
    payout_id TEXT NOT NULL REFERENCES payouts (id),
    created_at BIGINT NOT NULL,
    PRIMARY KEY (merchant_id, environment, currency, period)
  )`
])

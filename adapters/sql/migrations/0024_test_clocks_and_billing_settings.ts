import { runDdl } from "./dialect-ddl.js"

/**
 * Billing beyond the contract's floor (issue 36), the part every later piece stands on:
 * - `test_clocks`: a merchant's sandbox clocks; a subscription created on one (`test_clock_id`)
 *   lives on its frozen time, and only an advance of that clock moves it.
 * - `wake_at`: when the scheduler must next look at a subscription, whatever for (a billing date,
 *   a charge retry, a dunning step, a resume); `next_billing_at` stays the contract's field and is
 *   one of its inputs. The scheduler's queue is the index on it, one per clock scope.
 * - `billing_settings`: a merchant's dunning, retry and portal choices; no row means the defaults.
 */
export default runDdl([
  `CREATE TABLE test_clocks (
    id TEXT PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    name TEXT,
    frozen_time BIGINT NOT NULL,
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  )`,
  `CREATE INDEX test_clocks_merchant ON test_clocks (merchant_id, environment, created_at)`,
  `ALTER TABLE subscriptions ADD COLUMN test_clock_id TEXT REFERENCES test_clocks (id)`,
  `ALTER TABLE subscriptions ADD COLUMN wake_at BIGINT`,
  `UPDATE subscriptions SET wake_at = next_billing_at WHERE status <> 'cancelled'`,
  `CREATE INDEX subscriptions_wake ON subscriptions (wake_at, id) WHERE wake_at IS NOT NULL AND test_clock_id IS NULL`,
  `CREATE INDEX subscriptions_clock_wake ON subscriptions (test_clock_id, wake_at) WHERE test_clock_id IS NOT NULL`,
  `DROP INDEX subscriptions_next_billing`,
  `CREATE TABLE billing_settings (
    merchant_id BIGINT PRIMARY KEY REFERENCES merchants (id),
    retry_hours TEXT NOT NULL,
    reminder_days TEXT NOT NULL,
    grace_days BIGINT NOT NULL CHECK (grace_days >= 0),
    final_action TEXT NOT NULL,
    portal_cancellation SMALLINT NOT NULL,
    updated_at BIGINT NOT NULL
  )`
])

import { runDdl } from "./dialect-ddl.js"

/**
 * Saved payment methods and automatic renewals (issue 36):
 * - `saved_methods`: a customer's method saved at a subscription's checkout, per merchant and
 *   environment; the gateway's reusable reference sealed under the master key, beside the facts
 *   shown (brand, last four digits, expiry).
 * - subscriptions: the method a renewal is charged to (`saved_method_id`), when the next off-session
 *   try is due (`charge_at`, one of `wake_at`'s inputs), how many tries the current renewal has had,
 *   and the idempotency key of a try that was claimed but whose outcome is not yet recorded.
 */
export default runDdl([
  `CREATE TABLE saved_methods (
    id TEXT PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    customer_email TEXT NOT NULL,
    gateway_id BIGINT NOT NULL REFERENCES gateways (id),
    sealed_reference TEXT NOT NULL,
    brand TEXT NOT NULL,
    last4 TEXT NOT NULL,
    exp_month BIGINT NOT NULL,
    exp_year BIGINT NOT NULL,
    created_at BIGINT NOT NULL
  )`,
  `CREATE INDEX saved_methods_customer ON saved_methods (merchant_id, environment, customer_email, created_at)`,
  `ALTER TABLE subscriptions ADD COLUMN saved_method_id TEXT REFERENCES saved_methods (id)`,
  `ALTER TABLE subscriptions ADD COLUMN charge_at BIGINT`,
  `ALTER TABLE subscriptions ADD COLUMN charge_attempts BIGINT NOT NULL DEFAULT 0`,
  `ALTER TABLE subscriptions ADD COLUMN charge_claim TEXT`
])

import { runDdl } from "./dialect-ddl.js"

/**
 * Setup-only sessions (issue 36): a customer replacing a subscription's saved method with nothing to
 * pay. One row per session, tied to its subscription and the gateway record it runs through; used
 * once (`completed_at` and the method it saved set together) and refused after `expires_at`.
 */
export default runDdl([
  `CREATE TABLE method_setups (
    id TEXT PRIMARY KEY,
    subscription_id TEXT NOT NULL REFERENCES subscriptions (id),
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    gateway_id BIGINT NOT NULL REFERENCES gateways (id),
    gateway_reference TEXT,
    saved_method_id TEXT REFERENCES saved_methods (id),
    expires_at BIGINT NOT NULL,
    completed_at BIGINT,
    created_at BIGINT NOT NULL
  )`,
  `CREATE INDEX method_setups_subscription ON method_setups (subscription_id, created_at)`
])

import { runDdl } from "./dialect-ddl.js"

/**
 * What gateway plugins need kept: which gateways began a payment's checkout (and the gateway's own
 * reference, and when to ask it next), what the core refused to trust (flags an administrator
 * reads), and refunds on their way back to the card (an outbox, like webhooks).
 */
export default runDdl([
  // One row per gateway a customer chose for a payment: only these may report its outcome.
  `CREATE TABLE checkout_attempts (
    trx_id TEXT NOT NULL REFERENCES payments (trx_id),
    gateway_id BIGINT NOT NULL REFERENCES gateways (id),
    gateway_reference TEXT,
    began_at BIGINT NOT NULL,
    next_sync_at BIGINT,
    sync_count INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (trx_id, gateway_id)
  )`,
  `CREATE INDEX checkout_attempts_sync ON checkout_attempts (next_sync_at) WHERE next_sync_at IS NOT NULL`,
  `CREATE TABLE payment_flags (
    id {{id}},
    trx_id TEXT NOT NULL REFERENCES payments (trx_id),
    gateway_id BIGINT,
    reason TEXT NOT NULL,
    detail TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    UNIQUE (trx_id, gateway_id, reason)
  )`,
  `CREATE TABLE gateway_refunds (
    refund_trx_id TEXT PRIMARY KEY REFERENCES refunds (refund_trx_id),
    payment_trx_id TEXT NOT NULL REFERENCES payments (trx_id),
    gateway_id BIGINT NOT NULL REFERENCES gateways (id),
    amount BIGINT NOT NULL CHECK (amount > 0),
    currency TEXT NOT NULL,
    idempotency_key TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    next_attempt_at BIGINT,
    gateway_reference TEXT,
    message TEXT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  )`,
  `CREATE INDEX gateway_refunds_due ON gateway_refunds (next_attempt_at) WHERE next_attempt_at IS NOT NULL`,
  `CREATE INDEX gateway_refunds_payment ON gateway_refunds (payment_trx_id)`
])

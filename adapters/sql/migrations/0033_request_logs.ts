import { runDdl } from "./dialect-ddl.js"

/**
 * Request logs (core/request-logs): one row per merchant API call, written in batches after the
 * answers, read by the merchant newest first, removed by age. Bodies are stored already redacted
 * and bounded; `signature_check` is the refused signature's diagnosis as JSON, when there is one.
 */
export default runDdl([
  `CREATE TABLE request_logs (
    id TEXT PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    request_id TEXT NOT NULL,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    status INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    idempotency_key TEXT,
    error_code TEXT,
    error_message TEXT,
    request_body TEXT,
    response_body TEXT,
    signature_check TEXT,
    created_at BIGINT NOT NULL
  )`,
  `CREATE INDEX request_logs_merchant ON request_logs (merchant_id, environment, created_at, id)`,
  `CREATE INDEX request_logs_age ON request_logs (created_at)`
])

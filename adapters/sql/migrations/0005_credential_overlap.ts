import { runDdl } from "./dialect-ddl.js"

/**
 * Rotation with overlap: a replaced credential set moves here, still sealed, and stays valid until
 * `retires_at` (wall-clock microseconds); a purge destroys it after. Its merchant key is looked up
 * here only when no current set has it, so the index is not unique: a key is unique among current sets.
 */
export default runDdl([
  `CREATE TABLE retired_credentials (
    id {{id}},
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    merchant_key TEXT NOT NULL,
    api_key_hash TEXT NOT NULL,
    sealed_client_secret TEXT NOT NULL,
    sealed_webhook_secret TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    retires_at BIGINT NOT NULL
  )`,
  `CREATE INDEX retired_credentials_key ON retired_credentials (environment, merchant_key)`,
  `CREATE INDEX retired_credentials_merchant ON retired_credentials (merchant_id, environment)`,
  `CREATE INDEX retired_credentials_retires ON retired_credentials (retires_at)`
])

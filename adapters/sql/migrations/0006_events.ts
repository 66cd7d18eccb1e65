import { runDdl } from "./dialect-ddl.js"

/**
 * The events API reads the outbox: each event names its object (a payment's trx_id or a
 * subscription's id) and its place among that object's events. Rows queued before this migration
 * keep both null: their object is in their body only, and numbering them now could contradict what
 * their receivers already saw. The list is read newest first per merchant and environment.
 */
export default runDdl([
  `ALTER TABLE webhook_deliveries ADD COLUMN object_id TEXT`,
  `ALTER TABLE webhook_deliveries ADD COLUMN sequence BIGINT`,
  `CREATE INDEX webhook_deliveries_events ON webhook_deliveries (merchant_id, environment, created_at, id)`,
  `CREATE INDEX webhook_deliveries_object ON webhook_deliveries (merchant_id, environment, object_id, sequence)`
])

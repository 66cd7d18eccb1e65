import { runDdl } from "./dialect-ddl.js"

/**
 * Each object's event numbering becomes a counter row, drawn by one upsert that locks it: two
 * transactions queueing events of one object at once get 1 and 2, where reading the highest number
 * already queued let both read the same (neither sees the other's uncommitted row). The counters
 * start from the numbers queued so far, so every object's sequence continues where it stands.
 *
 * Delivery lanes: `webhook_slow_targets` holds the targets (a URL's origin, every merchant's alike,
 * as the per-target cap counts them) whose last attempt was slow; their deliveries are claimed in
 * the slow lane. `lease_lane` is the lane a live lease was claimed in, so a merchant's share of a
 * lane counts the leases of that lane only; it means nothing once the lease is gone.
 */
export default runDdl([
  `CREATE TABLE webhook_sequences (
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    object_id TEXT NOT NULL,
    last_sequence BIGINT NOT NULL,
    PRIMARY KEY (merchant_id, environment, object_id)
  )`,
  `INSERT INTO webhook_sequences (merchant_id, environment, object_id, last_sequence)
    SELECT merchant_id, environment, object_id, MAX(sequence) FROM webhook_deliveries
    WHERE object_id IS NOT NULL AND sequence IS NOT NULL
    GROUP BY merchant_id, environment, object_id`,
  `CREATE TABLE webhook_slow_targets (
    target TEXT PRIMARY KEY,
    slow_since BIGINT NOT NULL
  )`,
  `ALTER TABLE webhook_deliveries ADD COLUMN lease_lane TEXT`
])

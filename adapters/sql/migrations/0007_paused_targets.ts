import { runDdl } from "./dialect-ddl.js"

/**
 * How each of a merchant's webhook targets (a URL's origin, per environment) is faring: since when
 * every attempt to it has failed, and whether it was paused for that. A paused target's events stay
 * pending, unsent, until the merchant recovers; the claim skips them. A target that answers again is
 * forgotten, so the table holds only the ones failing now.
 */
export default runDdl([
  `CREATE TABLE webhook_targets (
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    target TEXT NOT NULL,
    failing_since BIGINT NOT NULL,
    paused_at BIGINT,
    PRIMARY KEY (merchant_id, environment, target)
  )`,
  `CREATE INDEX webhook_targets_paused ON webhook_targets (target) WHERE paused_at IS NOT NULL`
])

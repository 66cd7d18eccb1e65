import { runDdl } from "./dialect-ddl.js"

/**
 * The event log (core/webhooks/event-log.ts): one row per event, written in the transaction of the
 * change it reports whatever targets it goes to, read by the event stream in `sequence` order per
 * merchant and environment, and purged by age.
 */
export default runDdl([
  `CREATE TABLE event_log (
    sequence {{id}},
    event_id TEXT NOT NULL UNIQUE,
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    type TEXT NOT NULL,
    object_id TEXT NOT NULL,
    body TEXT NOT NULL,
    signing_secret TEXT NOT NULL,
    created_at BIGINT NOT NULL
  )`,
  `CREATE INDEX event_log_merchant ON event_log (merchant_id, environment, sequence)`,
  `CREATE INDEX event_log_created ON event_log (created_at)`
])

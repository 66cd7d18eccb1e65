import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import { runDdl } from "./dialect-ddl.js"

/**
 * The event log (core/webhooks/event-log.ts): one row per event, written in the transaction of the
 * change it reports whatever targets it goes to, read by the event stream in `sequence` order per
 * merchant and environment, and purged by age.
 */
const eventLog = runDdl([
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

/**
 * PostgreSQL hands out identities as transactions ask for them and shows rows as they commit, in
 * another order; a reader past sequence n would never see a smaller one committed later. So each
 * row takes its final sequence at commit, from a deferred trigger holding the merchant's lock: one
 * merchant's commits number their events in the order they become visible. Taken at commit, the
 * lock is the last a transaction asks for, so it can close no cycle of waits (a lock taken
 * mid-transaction did: two scheduler ticks of one merchant deadlocked on it and an invoice row).
 * SQLite has one writer, and its rowid order is its commit order.
 */
const commitOrderOnPg = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.zipRight(
    sql.unsafe(`CREATE FUNCTION event_log_commit_order() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        PERFORM pg_advisory_xact_lock(1836082540, NEW.merchant_id::integer);
        UPDATE event_log SET sequence = nextval(pg_get_serial_sequence('event_log', 'sequence')) WHERE sequence = NEW.sequence;
        RETURN NULL;
      END
    $$`),
    sql.unsafe(`CREATE CONSTRAINT TRIGGER event_log_commit_order AFTER INSERT ON event_log
      DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION event_log_commit_order()`)
  ))

export default Effect.zipRight(
  eventLog,
  Effect.flatMap(SqlClient.SqlClient, (sql) => sql.onDialectOrElse({ pg: () => commitOrderOnPg, orElse: () => Effect.void }))
)

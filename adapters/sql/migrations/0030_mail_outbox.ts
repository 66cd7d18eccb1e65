import { runDdl } from "./dialect-ddl.js"

/**
 * The mail outbox (core/mail): one row per mail, written in the transaction of the change it tells
 * about, sent by the dispatcher. `facts` is the kind's facts as JSON; `lease_until` holds a claimed
 * row on real time so two hosts never send one mail twice. Captured sandbox mail is listed per
 * merchant, newest first.
 */
export default runDdl([
  `CREATE TABLE mail_outbox (
    id TEXT PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    recipient TEXT NOT NULL,
    kind TEXT NOT NULL,
    facts TEXT NOT NULL,
    locale TEXT,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL,
    next_attempt_at BIGINT,
    lease_until BIGINT,
    last_error TEXT,
    sent_at BIGINT,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  )`,
  `CREATE INDEX mail_outbox_due ON mail_outbox (next_attempt_at) WHERE status = 'pending'`,
  `CREATE INDEX mail_outbox_merchant ON mail_outbox (merchant_id, environment, created_at)`
])

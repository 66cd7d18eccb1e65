import { runDdl } from "./dialect-ddl.js"

/**
 * `balance.available` announced once per book (core/balances/balance-announcements.ts): each book's
 * watermark, the completion time of the last payment whose net was announced available. Advanced by
 * a conditional write, so a tick run twice or on two hosts announces once. Successful payments are
 * read by completion time to find the books with something new past their watermark.
 */
export default runDdl([
  `CREATE TABLE balance_announcements (
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    currency TEXT NOT NULL,
    announced_through BIGINT NOT NULL,
    PRIMARY KEY (merchant_id, environment, currency)
  )`,
  `CREATE INDEX payments_success_completed ON payments (completed_at) WHERE status = 'success'`
])

import { runDdl } from "./dialect-ddl.js"

/**
 * Hosted checkout that a customer can recover from, and that a merchant can frame. A declined
 * attempt is kept on its checkout attempt (the choice page says so, and the payment stays open for
 * another try while its link is valid); the origins a merchant lets frame its checkout are one row
 * per merchant, apart from the merchant's own columns, in their CSP spelling (space-separated).
 */
export default runDdl([
  `ALTER TABLE checkout_attempts ADD COLUMN declined_at BIGINT`,
  `CREATE TABLE checkout_frame_ancestors (
    merchant_id BIGINT PRIMARY KEY REFERENCES merchants (id),
    origins TEXT NOT NULL,
    updated_at BIGINT NOT NULL
  )`
])

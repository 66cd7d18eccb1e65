import { runDdl } from "./dialect-ddl.js"

/**
 * The customer portal (core/customer-portal): a single-use link per row and, once visited, the
 * session it opened, both by SHA-256 digest only. The subscriptions index serves the portal's one
 * read of its own: a customer's subscriptions with a merchant in an environment, e-mail without case.
 */
export default runDdl([
  `CREATE TABLE customer_portal_sessions (
    link_hash TEXT PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    customer_email TEXT NOT NULL,
    return_url TEXT NOT NULL,
    link_expires_at BIGINT NOT NULL,
    session_hash TEXT UNIQUE,
    session_expires_at BIGINT,
    redeemed_at BIGINT,
    created_at BIGINT NOT NULL
  )`,
  `CREATE INDEX customer_portal_sessions_link_expiry ON customer_portal_sessions (link_expires_at)`,
  `CREATE INDEX subscriptions_customer ON subscriptions (merchant_id, environment, lower(customer_email))`
])

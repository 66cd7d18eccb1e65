import { runDdl } from "./dialect-ddl.js"

/**
 * The merchant dashboard's users, their one-time set-password links and their sessions. Emails are
 * unique across the kit (one sign-in names one merchant). Links and sessions are kept only as the
 * SHA-256 of their token. Deleting a user deletes its links and sessions: the repository does it
 * itself (an app's own SQLite connection may not enforce foreign keys), and the cascade says so too.
 * Sessions carry their merchant so a page's queries are scoped without reading the user first.
 */
export default runDdl([
  `CREATE TABLE merchant_users (
    id TEXT PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    email TEXT NOT NULL UNIQUE,
    role TEXT NOT NULL,
    status TEXT NOT NULL,
    password_hash TEXT,
    created_at BIGINT NOT NULL,
    last_sign_in_at BIGINT
  )`,
  `CREATE INDEX merchant_users_merchant ON merchant_users (merchant_id, created_at, id)`,
  `CREATE TABLE password_links (
    token_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES merchant_users (id) ON DELETE CASCADE,
    expires_at BIGINT NOT NULL
  )`,
  `CREATE INDEX password_links_user ON password_links (user_id)`,
  `CREATE INDEX password_links_expiry ON password_links (expires_at)`,
  `CREATE TABLE dashboard_sessions (
    id_hash TEXT PRIMARY KEY,
    user_id TEXT NOT NULL REFERENCES merchant_users (id) ON DELETE CASCADE,
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    created_at BIGINT NOT NULL,
    last_seen_at BIGINT NOT NULL
  )`,
  `CREATE INDEX dashboard_sessions_user ON dashboard_sessions (user_id)`,
  `CREATE INDEX dashboard_sessions_last_seen ON dashboard_sessions (last_seen_at)`,
  `CREATE INDEX dashboard_sessions_created ON dashboard_sessions (created_at)`
])

import { runDdl } from "./dialect-ddl.js"

/**
 * Merchants' webhook endpoints: URLs that take the events their patterns name (a JSON array of text)
 * in one environment. Deliveries name the URL, not the endpoint, so deleting an endpoint deletes its
 * row and leaves the events already queued to go out.
 */
export default runDdl([
  `CREATE TABLE webhook_endpoints (
    id TEXT PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    url TEXT NOT NULL,
    events TEXT NOT NULL,
    description TEXT,
    status TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    updated_at BIGINT NOT NULL
  )`,
  `CREATE INDEX webhook_endpoints_by_merchant ON webhook_endpoints (merchant_id, environment, created_at, id)`
])

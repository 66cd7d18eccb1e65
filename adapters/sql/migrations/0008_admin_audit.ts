import { runDdl } from "./dialect-ddl.js"

/**
 * The audit log: who changed what, when and from where, admin API changes first, merchant
 * dashboard actions later (`actor_type`). `merchant_id` is not a foreign key: a refused call may
 * name a merchant that does not exist, and the record must stand whatever becomes of what it names.
 * Read newest first, over everything or one merchant's.
 */
export default runDdl([
  `CREATE TABLE audit_log (
    id {{id}},
    created_at BIGINT NOT NULL,
    actor_type TEXT NOT NULL,
    actor_id TEXT NOT NULL,
    source_address TEXT NOT NULL,
    operation TEXT NOT NULL,
    method TEXT NOT NULL,
    route TEXT NOT NULL,
    path_params TEXT NOT NULL,
    merchant_id BIGINT,
    status INTEGER NOT NULL,
    fields TEXT NOT NULL,
    request_id TEXT
  )`,
  `CREATE INDEX audit_log_recent ON audit_log (created_at, id)`,
  `CREATE INDEX audit_log_merchant ON audit_log (merchant_id, created_at, id)`
])

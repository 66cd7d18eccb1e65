import { runDdl } from "./dialect-ddl.js"

/**
 * The claim reads each target's oldest due deliveries: this index holds a target's pending rows
 * together in due order, and lets the claim step from one target to the next without reading the
 * rows between, so a claim costs what the number of waiting targets makes it, whatever the backlog.
 */
export default runDdl([
  `CREATE INDEX webhook_deliveries_pending_target ON webhook_deliveries (status, target, next_attempt_at, id)`
])

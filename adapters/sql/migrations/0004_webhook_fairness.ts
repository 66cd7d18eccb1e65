import { runDdl } from "./dialect-ddl.js"

/**
 * Fair webhook delivery and leases on real time.
 *
 * `target` is the delivery URL's origin (scheme, host, port): the claim caps the attempts in flight
 * per target, so one receiver that never answers cannot take every sender. Rows queued before this
 * migration take their whole URL as their target, a finer grouping that is just as fair.
 *
 * `gateway_refunds.lease_until` holds a claimed refund call on real time, apart from its business-time
 * due date, so moving a manual clock mid-call cannot hand the call to a second caller.
 */
export default runDdl([
  `ALTER TABLE webhook_deliveries ADD COLUMN target TEXT NOT NULL DEFAULT ''`,
  `UPDATE webhook_deliveries SET target = url`,
  `CREATE INDEX webhook_deliveries_in_flight ON webhook_deliveries (target) WHERE lease_owner IS NOT NULL`,
  `ALTER TABLE gateway_refunds ADD COLUMN lease_until BIGINT`
])

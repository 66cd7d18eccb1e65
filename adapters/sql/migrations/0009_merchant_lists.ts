import { runDdl } from "./dialect-ddl.js"

/**
 * The merchant's own lists of payments and refunds (GET /api/v1/payments, /api/v1/refunds): one
 * merchant's rows in one environment, newest first by (created_at, id), read page after page by
 * keyset. Without these the store would scan every merchant's rows for each page. Filters (status,
 * reference, amount, payment) narrow within the merchant's rows; the reference has its own index.
 */
export default runDdl([
  `CREATE INDEX payments_merchant_recent ON payments (merchant_id, environment, created_at, trx_id)`,
  `CREATE INDEX refunds_merchant_recent ON refunds (merchant_id, environment, created_at, refund_trx_id)`
])

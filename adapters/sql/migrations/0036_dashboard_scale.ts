import { runDdl } from "./dialect-ddl.js"

/**
 * The dashboard with a million payments of one merchant (issue 38): every list page reads at most a
 * page's worth of index entries, and the overview's takings read the index alone.
 * - payments_merchant_completed gains currency, amount, net and trx_id: the overview's totals of today, seven
 *   and thirty days (and the balance page's recent takings) sum them without a row lookup per payment;
 *   its leading columns are unchanged, so every query it served it still serves.
 * - payments_merchant_status: a list filtered by status walks that status newest first (the failed
 *   list reads its two parts, failed and expired pending, this way and merges them); expires_at is
 *   in it so the pending list tells open from expired checkouts without a row lookup each.
 * - payments_merchant_amount: a search by amount finds its few payments without reading every one.
 */
export default runDdl([
  `DROP INDEX payments_merchant_completed`,
  `CREATE INDEX payments_merchant_completed ON payments (merchant_id, environment, status, completed_at, currency, amount, net, trx_id)`,
  `CREATE INDEX payments_merchant_status ON payments (merchant_id, environment, status, created_at, trx_id, expires_at)`,
  `CREATE INDEX payments_merchant_amount ON payments (merchant_id, environment, amount, created_at, trx_id)`
])

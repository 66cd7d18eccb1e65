import { runDdl } from "./dialect-ddl.js"

/**
 * The dashboard's takings (payments paid since a moment, per currency) are read on every overview:
 * without this index the store would read every payment of the merchant to find today's few.
 * Statements need nothing new: ledger_entries_wallet (wallet_id, id) already serves their keyset.
 */
export default runDdl([
  `CREATE INDEX payments_merchant_completed ON payments (merchant_id, environment, status, completed_at)`
])

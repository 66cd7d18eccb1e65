import { runDdl } from "./dialect-ddl.js"

/**
 * Where merchants' payouts go. The IBAN is kept sealed under the master key (and re-sealed by a
 * rotation: master-key-rotation.ts lists the column) beside its masked form in clear, which is all
 * a list shows. A deleted destination keeps its row, marked, for the payouts that will name it.
 */
export default runDdl([
  `CREATE TABLE payout_destinations (
    id TEXT PRIMARY KEY,
    merchant_id BIGINT NOT NULL REFERENCES merchants (id),
    environment TEXT NOT NULL,
    type TEXT NOT NULL,
    account_holder TEXT NOT NULL,
    iban_masked TEXT NOT NULL,
    sealed_iban TEXT NOT NULL,
    bic TEXT,
    currency TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    deleted_at BIGINT
  )`,
  `CREATE INDEX payout_destinations_by_merchant ON payout_destinations (merchant_id, environment, created_at)`
])

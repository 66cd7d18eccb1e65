import { runDdl } from "./dialect-ddl.js"

/**
 * Reconciliation (core/reconciliation): settlement reports, their lines with the outcome of each,
 * and a scratch table the kit's records of a gateway are gathered in while one report is matched
 * (emptied in the same transaction), so matching is a few joins on indexes whatever the report's size.
 * The kit's side is read by gateway and time, and a payment's or refund's journal entry by its reference.
 */
export default runDdl([
  `CREATE TABLE reconciliation_reports (
    id TEXT PRIMARY KEY,
    gateway_id BIGINT NOT NULL REFERENCES gateways (id),
    gateway_code TEXT NOT NULL,
    environment TEXT NOT NULL,
    period_from BIGINT NOT NULL,
    period_to BIGINT NOT NULL,
    source TEXT NOT NULL,
    line_count BIGINT NOT NULL,
    matched BIGINT NOT NULL,
    missing_in_kit BIGINT NOT NULL,
    missing_at_gateway BIGINT NOT NULL,
    amount_differs BIGINT NOT NULL,
    gateway_only BIGINT NOT NULL,
    created_at BIGINT NOT NULL
  )`,
  `CREATE INDEX reconciliation_reports_listing ON reconciliation_reports (created_at, id)`,
  `CREATE TABLE reconciliation_lines (
    report_id TEXT NOT NULL REFERENCES reconciliation_reports (id),
    line_no BIGINT NOT NULL,
    outcome TEXT,
    type TEXT NOT NULL,
    gateway_reference TEXT NOT NULL,
    currency TEXT NOT NULL,
    gateway_amount BIGINT,
    settled_at BIGINT,
    kit_record TEXT,
    kit_amount BIGINT,
    kit_currency TEXT,
    kit_at BIGINT,
    PRIMARY KEY (report_id, line_no)
  )`,
  `CREATE INDEX reconciliation_lines_reference ON reconciliation_lines (report_id, gateway_reference, type)`,
  `CREATE INDEX reconciliation_lines_outcome ON reconciliation_lines (report_id, outcome, line_no)`,
  `CREATE TABLE reconciliation_kit_records (
    report_id TEXT NOT NULL,
    reference TEXT NOT NULL,
    type TEXT NOT NULL,
    record TEXT NOT NULL,
    amount BIGINT NOT NULL,
    currency TEXT NOT NULL,
    at BIGINT NOT NULL
  )`,
  `CREATE INDEX reconciliation_kit_records_reference ON reconciliation_kit_records (report_id, reference, type)`,
  `CREATE INDEX payments_by_gateway ON payments (gateway_id, environment, completed_at)`,
  `CREATE INDEX gateway_refunds_by_gateway ON gateway_refunds (gateway_id, created_at)`,
  `CREATE INDEX journal_entries_reference ON journal_entries (reference, kind)`
])

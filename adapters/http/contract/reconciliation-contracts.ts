import * as Schema from "effect/Schema"
import {
  DEFAULT_LINE_LIMIT,
  DEFAULT_RECONCILIATION_LIMIT,
  MAX_LINE_LIMIT,
  MAX_RECONCILIATION_LIMIT
} from "../../../core/reconciliation/reconciliation-reports.js"
import { ReconciliationOutcome, ReportSource, SettlementLineType } from "../../../core/reconciliation/settlement.js"
import type { Instant } from "../../../core/shared/instant.js"
import { dataOf } from "./envelopes.js"
import { dateTime, oneOf, string } from "./field-rules.js"
import { cursorParameter, limitParameter } from "./keyset-parameters.js"
import { cursorPage } from "./merchant-list-resources.js"
import type { ListParameter } from "./parameters.js"
import { queryOf } from "./query-contract.js"
import { bodyContract } from "./read-body.js"
import { Environment, IsoDateTime, Money, NullableTimestamp, PositiveId, Timestamp } from "./value-schemas.js"

/** The queries, bodies and answers of /admin/v1/reconciliation (docs/admin-api.md, reconciliation). */

const periodParameter = (name: "from" | "to", description: string): ListParameter<Instant> => ({
  name,
  in: "query",
  required: true,
  description,
  schema: IsoDateTime,
  read: (query) => query.instant(name) ?? query.required(name)
})

export const uploadQuery = queryOf({
  from: periodParameter("from", "The period's first moment: every line settled at or after it."),
  to: periodParameter("to", "The moment after the period: every line settled before it; at most 93 days after from.")
})

export const reportListQuery = queryOf({
  limit: limitParameter("Reports per page.", DEFAULT_RECONCILIATION_LIMIT, MAX_RECONCILIATION_LIMIT),
  cursor: cursorParameter("A previous page's next_cursor.")
})

const outcomeParameter: ListParameter<ReconciliationOutcome | undefined> = {
  name: "outcome",
  in: "query",
  required: false,
  description: "Only the lines of this outcome: `amount_differs`, `missing_in_kit` and `missing_at_gateway` are the discrepancies.",
  schema: ReconciliationOutcome,
  read: (query) => query.oneOf("outcome", ReconciliationOutcome.literals)
}

export const lineListQuery = queryOf({
  outcome: outcomeParameter,
  limit: limitParameter("Lines per page.", DEFAULT_LINE_LIMIT, MAX_LINE_LIMIT),
  cursor: cursorParameter("A previous page's next_cursor: the lines after it, in line order.")
})

export const lineCsvQuery = queryOf({ outcome: outcomeParameter })

export const runBody = bodyContract("ReconciliationRunRequest", "A period of one gateway record's settlement, fetched by its plugin and reconciled.", {
  gateway: string({ required: true, max: 100, description: "The gateway record's code.", examples: ["card-usd"] }),
  environment: oneOf(["sandbox", "production"], { required: true, description: "The book whose records are matched." }),
  from: dateTime({ required: true, max: 64, description: "The period's first moment.", examples: ["2026-10-01T00:00:00Z"] }),
  to: dateTime({ required: true, max: 64, description: "The moment after the period; at most 93 days after from.", examples: ["2026-11-01T00:00:00Z"] })
})

const Counts = Schema.Struct({
  matched: Schema.Number,
  missing_in_kit: Schema.Number,
  missing_at_gateway: Schema.Number,
  amount_differs: Schema.Number,
  gateway_only: Schema.Number
}).annotations({ identifier: "ReconciliationCounts", description: "Lines by outcome." })

export const ReconciliationReport = Schema.Struct({
  id: Schema.String.annotations({ examples: ["rr_0123456789abcdef0123456789abcdef"] }),
  gateway: Schema.String.annotations({ description: "The gateway record's code." }),
  gateway_id: PositiveId,
  environment: Environment,
  from: Timestamp,
  to: Timestamp,
  source: ReportSource,
  line_count: Schema.Number.annotations({ description: "The lines the gateway's report held." }),
  counts: Counts,
  created_at: Timestamp
}).annotations({ identifier: "ReconciliationReport", description: "A gateway's settlement over a period, matched to the kit's records." })

export const ReconciliationReportEnvelope = dataOf(ReconciliationReport, "ReconciliationReportAnswer")
export const ReconciliationReportPage = Schema.Struct(cursorPage(ReconciliationReport)).annotations({ identifier: "ReconciliationReportPage" })

export const ReconciliationLine = Schema.Struct({
  line: Schema.Number.annotations({ description: "The CSV record's number (the header is 1); the kit's lines follow the gateway's." }),
  outcome: ReconciliationOutcome,
  type: SettlementLineType,
  gateway_reference: Schema.String,
  currency: Schema.String,
  gateway_amount: Schema.NullOr(Money).annotations({ description: "Signed: positive took money in for the platform. Null when the gateway has no such line." }),
  settled_at: NullableTimestamp,
  kit_record: Schema.NullOr(Schema.String).annotations({ description: "The kit's trx_id, refund id, dispute id or payout id." }),
  kit_amount: Schema.NullOr(Money).annotations({ description: "The gateway-clearing line of the record's journal entry (a dispute's or payout's own amount), signed alike." }),
  kit_currency: Schema.NullOr(Schema.String),
  kit_at: NullableTimestamp
}).annotations({ identifier: "ReconciliationLine" })

export const ReconciliationLinePage = Schema.Struct(cursorPage(ReconciliationLine)).annotations({ identifier: "ReconciliationLinePage" })

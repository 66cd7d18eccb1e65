import * as Schema from "effect/Schema"
import { DEFAULT_PAYOUT_LIMIT, MAX_PAYOUT_LIMIT } from "../../../core/payouts/list-payouts.js"
import { PayoutStatus } from "../../../core/payouts/payout.js"
import { dataOf, listOf } from "./envelopes.js"
import { amount, currencyCode, string } from "./field-rules.js"
import { cursorParameter, limitParameter, timeParameter } from "./keyset-parameters.js"
import type { ListParameter } from "./parameters.js"
import { queryOf } from "./query-contract.js"
import { bodyContract } from "./read-body.js"
import { cursorPage } from "./merchant-list-resources.js"
import { Environment, Money, PositiveId, Timestamp } from "./value-schemas.js"

/** The bodies, answers and list queries of /api/v1/payouts and /admin/v1/payouts. */

export const createPayoutBody = bodyContract("CreatePayoutRequest", "Money to move from the wallet to one of the merchant's payout destinations.", {
  amount: amount({ required: true, description: "At most the wallet's available balance, in the currency's own digits.", examples: [150.25] }),
  currency: currencyCode({ required: true, description: "The destination's currency.", examples: ["EUR"] }),
  destination_id: string({ required: true, max: 100, description: "One of the merchant's payout destinations in this environment.", examples: ["pd_0123456789abcdef0123456789abcdef"] })
})

export const rejectPayoutBody = bodyContract("RejectPayoutRequest", "Why the payout is refused; its amount goes back to the wallet.", {
  reason: string({ required: true, max: 500, description: "Kept with the payout and shown to the merchant." })
})

export const failPayoutBody = bodyContract("FailPayoutRequest", "Why the payout did not arrive; its amount goes back to the wallet.", {
  reason: string({ required: true, max: 500, description: "Kept with the payout and shown to the merchant." })
})

export const markPayoutPaidBody = bodyContract("MarkPayoutPaidRequest", "The payout left the platform's bank.", {
  reference: string({ required: true, max: 200, description: "The bank's or rail's reference for the transfer." })
})

const payoutFields = {
  id: Schema.String.annotations({ examples: ["po_0123456789abcdef0123456789abcdef"] }),
  status: PayoutStatus,
  amount: Money,
  currency: Schema.String,
  destination_id: Schema.String,
  environment: Environment,
  reason: Schema.NullOr(Schema.String).annotations({ description: "Why it was rejected or failed." }),
  reference: Schema.NullOr(Schema.String).annotations({ description: "The transfer's reference once paid." }),
  rail: Schema.NullOr(Schema.String).annotations({ description: "The payout rail that carries it (`manual`, or a plugin's such as `stripe`), named when it is approved; null before." }),
  approved_at: Schema.NullOr(Timestamp).annotations({ description: "When an operator approved it; null before (and for a payout rejected)." }),
  created_at: Timestamp,
  updated_at: Timestamp
}

export const Payout = Schema.Struct(payoutFields).annotations({ identifier: "Payout", description: "Money on its way from the wallet to a payout destination." })
export const PayoutEnvelope = dataOf(Payout, "PayoutAnswer")

export const PayoutPage = Schema.Struct(cursorPage(Payout)).annotations({ identifier: "PayoutPage", description: "Payouts, newest first." })

/** An operator's view names the merchant too. */
export const AdminPayout = Schema.Struct({ ...payoutFields, merchant_id: PositiveId }).annotations({ identifier: "AdminPayout" })
export const AdminPayoutEnvelope = dataOf(AdminPayout, "AdminPayoutAnswer")
export const AdminPayoutPage = Schema.Struct(cursorPage(AdminPayout)).annotations({ identifier: "AdminPayoutPage", description: "Payouts, newest first." })

const payoutLimitParameter = limitParameter("Payouts per page.", DEFAULT_PAYOUT_LIMIT, MAX_PAYOUT_LIMIT)
const payoutCursorParameter = cursorParameter("A previous page's next_cursor: the page after it, however many payouts arrived since.")
const since = timeParameter("since", "Only those created at or after this time.")
const until = timeParameter("until", "Only those created before this time.")

const payoutStatusParameter: ListParameter<PayoutStatus | undefined> = {
  name: "status",
  in: "query",
  required: false,
  description: "Only payouts with this status: pending payouts are the ones waiting for an operator.",
  schema: PayoutStatus,
  read: (query) => query.oneOf("status", PayoutStatus.literals)
}

export const payoutListQuery = queryOf({ limit: payoutLimitParameter, cursor: payoutCursorParameter, since, until })
export const adminPayoutListQuery = queryOf({ status: payoutStatusParameter, limit: payoutLimitParameter, cursor: payoutCursorParameter, since, until })

const entryFormatParameter: ListParameter<"json" | "csv" | undefined> = {
  name: "format",
  in: "query",
  required: false,
  description: "`csv` for CSV (as `Accept: text/csv` asks); JSON otherwise.",
  schema: Schema.Literal("json", "csv"),
  read: (query) => query.oneOf("format", ["json", "csv"] as const)
}

export const payoutEntriesQuery = queryOf({ format: entryFormatParameter })

const JournalLine = Schema.Struct({
  account: Schema.String.annotations({ description: "The ledger account (docs/decisions.md names them).", examples: ["merchant:7:wallet"] }),
  amount: Money.annotations({ description: "Debit positive, credit negative." })
})

const PayoutEntry = Schema.Struct({
  id: PositiveId,
  kind: Schema.Literal("payout_requested", "payout_paid", "payout_returned"),
  created_at: Timestamp,
  environment: Environment,
  currency: Schema.String,
  lines: Schema.Array(JournalLine)
}).annotations({ identifier: "PayoutEntry", description: "A journal entry of the payout: balanced lines over the ledger's accounts." })

export const PayoutEntryList = listOf(PayoutEntry, "PayoutEntryList")

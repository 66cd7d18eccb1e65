import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import { getPayout, listPayouts } from "../../../core/payouts/list-payouts.js"
import { payoutEntries, payoutEntriesCsv } from "../../../core/payouts/payout-entries.js"
import { requestPayout } from "../../../core/payouts/request-payout.js"
import { toIsoString } from "../../../core/shared/instant.js"
import { jsonAmount } from "../contract/json-codec.js"
import { textInPath } from "../contract/parameters.js"
import * as Contract from "../contract/payout-contracts.js"
import { validBody } from "../contract/read-body.js"
import { endpoint } from "../endpoint/endpoint.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"
import { payoutJson } from "../response/payout-json.js"
import { TextFile, wantsCsv } from "../response/text-file.js"

const TAG = "Payouts"
const payoutIdInPath = textInPath("payoutId", "The payout's id.")

const create = endpoint({
  method: "post",
  path: "/api/v1/payouts",
  operationId: "createPayout",
  summary: "Ask for a payout to one of the merchant's destinations",
  description: "The amount leaves the wallet at once and waits, pending, for an operator's approval; a rejected or failed payout returns it. " +
    "Concurrent payouts never together exceed the balance.",
  tag: TAG,
  security: "merchant",
  body: Contract.createPayoutBody,
  success: { status: 201, description: "The payout, pending (also for an idempotent replay).", schema: Contract.PayoutEnvelope },
  errors: ["PayoutExceedsBalance"],
  handler: Effect.gen(function*() {
    const body = yield* validBody(Contract.createPayoutBody)
    const payout = yield* requestPayout(yield* CurrentMerchant, { amount: body.amount, currency: body.currency, destinationId: body.destination_id })
    return { data: payoutJson(payout) }
  })
})

const list = endpoint({
  method: "get",
  path: "/api/v1/payouts",
  operationId: "listPayouts",
  summary: "List payouts, newest first",
  description: "The merchant's payouts in the environment of the request. Pages follow next_cursor, which stays right while new payouts arrive.",
  tag: TAG,
  security: "merchant",
  query: Contract.payoutListQuery,
  success: { status: 200, description: "A page of payouts.", schema: Contract.PayoutPage },
  handler: (request) => Effect.gen(function*() {
    const page = yield* listPayouts(yield* CurrentMerchant, request)
    return { data: page.payouts.map(payoutJson), has_more: page.nextCursor !== null, next_cursor: page.nextCursor }
  })
})

const get = endpoint({
  method: "get",
  path: "/api/v1/payouts/{payoutId}",
  operationId: "getPayout",
  summary: "One payout",
  description: "Another merchant's or environment's id is not found.",
  tag: TAG,
  security: "merchant",
  parameters: [payoutIdInPath],
  success: { status: 200, description: "The payout.", schema: Contract.PayoutEnvelope },
  errors: ["PayoutNotFound"],
  handler: Effect.gen(function*() {
    const payout = yield* getPayout(yield* CurrentMerchant, yield* payoutIdInPath.read)
    return { data: payoutJson(payout) }
  })
})

const entries = endpoint({
  method: "get",
  path: "/api/v1/payouts/{payoutId}/entries",
  operationId: "listPayoutEntries",
  summary: "The ledger entries a payout settles",
  description: "Its journal entries, oldest first: the request (wallet to payouts in transit), then paid (out to the platform's payouts paid) " +
    "or returned (back to the wallet), each with its balanced lines. CSV with `?format=csv` or `Accept: text/csv`, one row per line. " +
    "Another merchant's or environment's id is not found.",
  tag: TAG,
  security: "merchant",
  parameters: [payoutIdInPath],
  query: Contract.payoutEntriesQuery,
  success: { status: 200, description: "The entries.", schema: Contract.PayoutEntryList, files: ["text/csv"] },
  errors: ["PayoutNotFound"],
  handler: (query) =>
    Effect.gen(function*() {
      const { entries: found, exponent, payout } = yield* payoutEntries(yield* CurrentMerchant, yield* payoutIdInPath.read)
      const accept = (yield* HttpServerRequest.HttpServerRequest).headers["accept"]
      if (wantsCsv(query.format, accept)) return new TextFile("text/csv; charset=utf-8", payoutEntriesCsv(found, exponent), `payout-${payout.id}-entries.csv`)
      return {
        data: found.map((entry) => ({
          id: entry.id,
          kind: entry.kind as "payout_requested" | "payout_paid" | "payout_returned",
          created_at: toIsoString(entry.createdAt),
          environment: entry.environment,
          currency: entry.currency,
          lines: entry.lines.map((line) => ({ account: line.account, amount: jsonAmount(line.amount) }))
        }))
      }
    })
})

/** Money out (issue 35, item 3): ask for a payout, list them, read one and the entries it settles. */
export const payoutEndpoints = [create, list, get, entries] as const

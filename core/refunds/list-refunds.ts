import * as Effect from "effect/Effect"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { keysetCursor, keysetPage, type KeysetRequest } from "../shared/keyset-page.js"
import type { Refund } from "./refund.js"
import { RefundRepository } from "./refund-repository.js"

/**
 * The merchant's refunds in the environment of its credentials, newest first: the list behind
 * GET /api/v1/refunds. Another merchant's or environment's refunds never appear.
 */

export const DEFAULT_REFUND_LIMIT = 20
export const MAX_REFUND_LIMIT = 100

/** The shared paging (cursor, since, until, limit) and this list's own filters. */
export interface RefundListRequest extends KeysetRequest {
  /** Only the refunds of this payment. */
  readonly trxId?: string
}

export interface RefundPage {
  readonly refunds: ReadonlyArray<Refund>
  /** Where the next page starts; null on the last page. */
  readonly nextCursor: string | null
}

/** Refund transaction ids are printable ASCII. */
const refundCursor = keysetCursor("[\\x21-\\x7e]{1,100}", String)

/** One page; the next starts after its last refund, whatever arrived since. */
export const listRefunds = (caller: MerchantScope, request: RefundListRequest) =>
  Effect.gen(function*() {
    const repository = yield* RefundRepository
    const { nextCursor, rows } = yield* keysetPage(refundCursor, request, ({ before, limit }) =>
      Effect.map(
        repository.list({
          merchantId: caller.merchant.id,
          environment: caller.environment,
          limit,
          ...(request.trxId !== undefined ? { paymentTrxId: request.trxId } : {}),
          ...(request.since !== undefined ? { since: request.since } : {}),
          ...(request.until !== undefined ? { until: request.until } : {}),
          ...(before !== undefined ? { before } : {})
        }),
        (refunds) => refunds.map((refund) => ({ createdAt: refund.createdAt, id: refund.refundTrxId, refund }))
      ))
    const page: RefundPage = { refunds: rows.map((row) => row.refund), nextCursor }
    return page
  })

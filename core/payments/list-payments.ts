import * as Effect from "effect/Effect"
import type { Amount } from "../money/amount.js"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { now } from "../shared/instant.js"
import { keysetCursor, keysetPage, type KeysetRequest } from "../shared/keyset-page.js"
import { expireIfDue } from "./open-checkout.js"
import type { Payment, PaymentStatus } from "./payment.js"
import { PaymentRepository } from "./payment-repository.js"

/**
 * The merchant's payments in the environment of its credentials, newest first: the list behind
 * GET /api/v1/payments and the dashboard's payments page. Another merchant's or environment's
 * payments never appear.
 */

export const DEFAULT_PAYMENT_LIMIT = 20
export const MAX_PAYMENT_LIMIT = 100

/** The shared paging (cursor, since, until, limit) and this list's own filters. */
export interface PaymentListRequest extends KeysetRequest {
  readonly status?: PaymentStatus
  /** The merchant's ref_trx, exactly. */
  readonly reference?: string
  /** The payment's amount, exactly. */
  readonly amount?: Amount
  readonly currency?: string
}

export interface PaymentPage {
  readonly payments: ReadonlyArray<Payment>
  /** Where the next page starts; null on the last page. */
  readonly nextCursor: string | null
}

/** Transaction ids are printable ASCII (`SANDBOX_` + base32 today). */
const paymentCursor = keysetCursor("[\\x21-\\x7e]{1,100}", String)

/**
 * One page; the next starts after its last payment, whatever arrived since. A pending payment whose
 * checkout expired is failed as it is listed, as verify does, so the list and verify never disagree.
 */
export const listPayments = (caller: MerchantScope, request: PaymentListRequest) =>
  Effect.gen(function*() {
    const repository = yield* PaymentRepository
    const at = yield* now
    const { nextCursor, rows } = yield* keysetPage(paymentCursor, request, ({ before, limit }) =>
      Effect.map(
        repository.list({
          merchantId: caller.merchant.id,
          environment: caller.environment,
          now: at,
          limit,
          ...(request.status !== undefined ? { status: request.status } : {}),
          ...(request.reference !== undefined ? { refTrx: request.reference } : {}),
          ...(request.amount !== undefined ? { amount: request.amount } : {}),
          ...(request.currency !== undefined ? { currency: request.currency } : {}),
          ...(request.since !== undefined ? { since: request.since } : {}),
          ...(request.until !== undefined ? { until: request.until } : {}),
          ...(before !== undefined ? { before } : {})
        }),
        (payments) => payments.map((payment) => ({ createdAt: payment.createdAt, id: payment.trxId, payment }))
      ))
    // Payments are never deleted, so the one listed is there to expire: should that ever not hold,
    // it is shown as read rather than failing the whole page.
    const payments = yield* Effect.forEach(rows, (row) =>
      expireIfDue(row.payment).pipe(Effect.catchTag("PaymentNotFound", () => Effect.succeed(row.payment))))
    const page: PaymentPage = { payments, nextCursor }
    return page
  })

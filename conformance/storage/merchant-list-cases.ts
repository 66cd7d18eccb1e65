import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type { Payment } from "../../core/payments/payment.js"
import { PaymentRepository } from "../../core/payments/payment-repository.js"
import type { Refund } from "../../core/refunds/refund.js"
import { RefundRepository } from "../../core/refunds/refund-repository.js"
import { now, plusSeconds } from "../../core/shared/instant.js"
import { makeMerchant, newPayment, unique, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const succeeded = { outcome: "paid", fee: units(3), net: units(97), gatewayId: null } as const
const trxIds = (payments: ReadonlyArray<Payment>) => payments.map((payment) => payment.trxId)
const refundIds = (refunds: ReadonlyArray<Refund>) => refunds.map((refund) => refund.refundTrxId)

/** The merchant's own lists (GET /api/v1/payments, /api/v1/refunds): scope, order, keyset, filters. */
export const merchantListCases = (it: StorageIt) => {
  it.effect("payment list: the merchant's own in one environment, newest first by (created_at, trx_id), paged by keyset", () =>
    Effect.gen(function*() {
      const repo = yield* PaymentRepository
      const merchant = yield* makeMerchant()
      const at = yield* now
      const expiresAt = plusSeconds(at, 3600)
      // Two share an instant: the trx_id breaks the tie, descending.
      const older = yield* repo.insert(newPayment(merchant.id, { expiresAt, trxId: unique("SANDBOX_A") }), at)
      const tiedA = yield* repo.insert(newPayment(merchant.id, { expiresAt, trxId: "SANDBOX_" + unique("A") }), plusSeconds(at, 1))
      const tiedB = yield* repo.insert(newPayment(merchant.id, { expiresAt, trxId: "SANDBOX_" + unique("B") }), plusSeconds(at, 1))
      const newest = yield* repo.insert(newPayment(merchant.id, { expiresAt }), plusSeconds(at, 2))
      yield* repo.insert(newPayment(merchant.id, { expiresAt, environment: "production" }), at)
      yield* repo.insert(newPayment((yield* makeMerchant()).id, { expiresAt }), at)

      const scope = { merchantId: merchant.id, environment: "sandbox", now: at } as const
      const all = yield* repo.list({ ...scope, limit: 10 })
      expect(trxIds(all)).toEqual(trxIds([newest, tiedB, tiedA, older]))
      expect(all[0]).toEqual(newest)
      const first = yield* repo.list({ ...scope, limit: 2 })
      const rest = yield* repo.list({ ...scope, limit: 10, before: { createdAt: first[1]!.createdAt, id: first[1]!.trxId } })
      expect(trxIds([...first, ...rest])).toEqual(trxIds(all))
      const production = yield* repo.list({ ...scope, environment: "production", limit: 10 })
      expect(production.length).toBe(1)
    }))

  it.effect("payment list: status (expired pending counts as failed), reference, exact amount, currency, [since, until)", () =>
    Effect.gen(function*() {
      const repo = yield* PaymentRepository
      const merchant = yield* makeMerchant()
      const at = yield* now
      const later = plusSeconds(at, 3600)
      const pending = yield* repo.insert(newPayment(merchant.id, { expiresAt: later, refTrx: "order-pending" }), at)
      const expired = yield* repo.insert(newPayment(merchant.id, { expiresAt: plusSeconds(at, 10) }), plusSeconds(at, 1))
      const paid = yield* repo.insert(newPayment(merchant.id, { expiresAt: later, amount: units(42) }), plusSeconds(at, 2))
      yield* repo.complete(paid.trxId, succeeded, plusSeconds(at, 3))
      const declined = yield* repo.insert(newPayment(merchant.id, { expiresAt: later, currency: "EUR" }), plusSeconds(at, 3))
      yield* repo.complete(declined.trxId, { outcome: "declined", gatewayId: null }, plusSeconds(at, 4))

      const scope = { merchantId: merchant.id, environment: "sandbox", limit: 10, now: plusSeconds(at, 20) } as const
      expect(trxIds(yield* repo.list({ ...scope, status: "pending" }))).toEqual([pending.trxId])
      expect(trxIds(yield* repo.list({ ...scope, status: "failed" }))).toEqual([declined.trxId, expired.trxId])
      expect(trxIds(yield* repo.list({ ...scope, status: "success" }))).toEqual([paid.trxId])
      // Before its expiry the same payment is pending.
      expect(trxIds(yield* repo.list({ ...scope, now: at, status: "pending" }))).toEqual([expired.trxId, pending.trxId])
      expect(trxIds(yield* repo.list({ ...scope, refTrx: "order-pending" }))).toEqual([pending.trxId])
      expect(trxIds(yield* repo.list({ ...scope, amount: units(42) }))).toEqual([paid.trxId])
      expect(trxIds(yield* repo.list({ ...scope, currency: "EUR" }))).toEqual([declined.trxId])
      expect(trxIds(yield* repo.list({ ...scope, since: plusSeconds(at, 1), until: plusSeconds(at, 3) }))).toEqual([paid.trxId, expired.trxId])
      expect(yield* repo.list({ ...scope, status: "success", currency: "EUR" })).toEqual([])
    }))

  it.effect("payment list: paged by keyset through ties and statuses, no payment skipped or repeated, each page's filters honoured", () =>
    Effect.gen(function*() {
      const repo = yield* PaymentRepository
      const merchant = yield* makeMerchant()
      const at = yield* now
      const later = plusSeconds(at, 3600)
      // Three payments at each of four instants (ties broken by trx_id), the statuses interleaved:
      // declined, expired pending, still pending, paid; the failed list merges the first two.
      const made: Array<{ readonly payment: Payment; readonly status: "failed" | "pending" | "success" }> = []
      for (let n = 0; n < 12; n++) {
        const kind = n % 4
        const created = plusSeconds(at, Math.floor(n / 3))
        const payment = yield* repo.insert(newPayment(merchant.id, {
          expiresAt: kind === 1 ? plusSeconds(at, 10) : later,
          currency: n % 2 === 0 ? "USD" : "EUR",
          trxId: `SANDBOX_${unique(String.fromCharCode(65 + ((n * 7) % 12)))}`
        }), created)
        if (kind === 0) yield* repo.complete(payment.trxId, { outcome: "declined", gatewayId: null }, created)
        if (kind === 3) yield* repo.complete(payment.trxId, succeeded, created)
        made.push({ payment, status: kind === 0 || kind === 1 ? "failed" : kind === 2 ? "pending" : "success" })
      }
      yield* repo.insert(newPayment((yield* makeMerchant()).id, { expiresAt: plusSeconds(at, 10) }), at)
      const scope = { merchantId: merchant.id, environment: "sandbox", now: plusSeconds(at, 20) } as const
      const newestFirst = (rows: typeof made) =>
        rows.map((row) => row.payment).sort((a, b) =>
          a.createdAt !== b.createdAt ? (a.createdAt > b.createdAt ? -1 : 1) : a.trxId > b.trxId ? -1 : 1)
      /** Every page of `limit` from the first, each continued after the last one's last payment. */
      const walk = (filters: Partial<Parameters<typeof repo.list>[0]>, limit: number) =>
        Effect.gen(function*() {
          const seen: Array<Payment> = []
          for (;;) {
            const last = seen[seen.length - 1]
            const page = yield* repo.list({ ...scope, ...filters, limit, ...(last !== undefined ? { before: { createdAt: last.createdAt, id: last.trxId } } : {}) })
            expect(page.length).toBeLessThanOrEqual(limit)
            seen.push(...page)
            if (page.length < limit) return seen
          }
        })
      for (const limit of [1, 2, 5]) {
        expect(trxIds(yield* walk({}, limit))).toEqual(trxIds(newestFirst(made)))
        for (const status of ["failed", "pending", "success"] as const) {
          expect(trxIds(yield* walk({ status }, limit))).toEqual(trxIds(newestFirst(made.filter((row) => row.status === status))))
        }
        const eurFailedInRange = made.filter((row) =>
          row.status === "failed" && row.payment.currency === "EUR" && row.payment.createdAt >= plusSeconds(at, 1) && row.payment.createdAt < plusSeconds(at, 3))
        expect(trxIds(yield* walk({ status: "failed", currency: "EUR", since: plusSeconds(at, 1), until: plusSeconds(at, 3) }, limit)))
          .toEqual(trxIds(newestFirst(eurFailedInRange)))
      }
      // Before the expiry, the expired ones were pending, not failed.
      expect(trxIds(yield* walk({ status: "failed", now: at }, 2))).toEqual(trxIds(newestFirst(made.filter((_, n) => n % 4 === 0))))
    }))

  it.effect("refund list: the merchant's own in one environment, newest first, by payment and [since, until), paged by keyset", () =>
    Effect.gen(function*() {
      const payments = yield* PaymentRepository
      const refunds = yield* RefundRepository
      const merchant = yield* makeMerchant()
      const other = yield* makeMerchant()
      const at = yield* now
      const pay = (merchantId: typeof merchant.id, environment: "sandbox" | "production") =>
        Effect.tap(payments.insert(newPayment(merchantId, { expiresAt: plusSeconds(at, 60), environment }), at), (payment) =>
          payments.complete(payment.trxId, succeeded, at))
      const refund = (payment: Payment) =>
        refunds.insert({
          refundTrxId: unique("SANDBOX_RF"),
          paymentTrxId: payment.trxId,
          merchantId: payment.merchantId,
          environment: payment.environment,
          amount: units(1),
          currency: "USD",
          reason: null,
          refRefund: null,
          totalRefunded: units(1),
          remainingRefund: units(99)
        })
      const first = yield* pay(merchant.id, "sandbox")
      const second = yield* pay(merchant.id, "sandbox")
      const made = [yield* refund(first), yield* refund(second), yield* refund(first)]
      yield* refund(yield* pay(merchant.id, "production"))
      yield* refund(yield* pay(other.id, "sandbox"))

      const scope = { merchantId: merchant.id, environment: "sandbox", limit: 10 } as const
      const all = yield* refunds.list(scope)
      const newestFirst = [...made].sort((a, b) =>
        a.createdAt !== b.createdAt ? (a.createdAt > b.createdAt ? -1 : 1) : a.refundTrxId > b.refundTrxId ? -1 : 1)
      expect(refundIds(all)).toEqual(refundIds(newestFirst))
      expect(all[0]).toEqual(newestFirst[0])
      const page = yield* refunds.list({ ...scope, limit: 1 })
      const rest = yield* refunds.list({ ...scope, before: { createdAt: page[0]!.createdAt, id: page[0]!.refundTrxId } })
      expect(refundIds([...page, ...rest])).toEqual(refundIds(all))
      expect(new Set(refundIds(yield* refunds.list({ ...scope, paymentTrxId: first.trxId })))).toEqual(new Set([made[0]!.refundTrxId, made[2]!.refundTrxId]))
      expect(yield* refunds.list({ ...scope, since: plusSeconds(newestFirst[0]!.createdAt, 1) })).toEqual([])
      expect(yield* refunds.list({ ...scope, until: newestFirst[2]!.createdAt })).toEqual([])
    }))
}

import { randomUUID } from "node:crypto"
import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Dispute } from "../../core/disputes/dispute.js"
import { DisputeRepository } from "../../core/disputes/dispute-repository.js"
import { GatewayRepository } from "../../core/gateways/gateway-repository.js"
import { Amount } from "../../core/money/amount.js"
import { CheckoutAttempts } from "../../core/payments/checkout-attempts.js"
import { PaymentRepository } from "../../core/payments/payment-repository.js"
import type { Payout } from "../../core/payouts/payout.js"
import { PayoutDestinationRepository } from "../../core/payouts/payout-destination-repository.js"
import { PayoutRepository } from "../../core/payouts/payout-repository.js"
import { ReconciliationRepository } from "../../core/reconciliation/reconciliation-repository.js"
import type { SettlementLine, SettlementLineType } from "../../core/reconciliation/settlement.js"
import { GatewayRefunds, newGatewayRefund } from "../../core/refunds/gateway-refund.js"
import { RefundRepository } from "../../core/refunds/refund-repository.js"
import type { Environment } from "../../core/shared/environment.js"
import type { GatewayId, MerchantId, WalletId } from "../../core/shared/ids.js"
import { fromSeconds, type Instant, plusSeconds } from "../../core/shared/instant.js"
import { WalletRepository } from "../../core/wallets/wallet-repository.js"
import { makeMerchant, makeWallet, newPayment, unique, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const DAY = 86_400
const FROM = fromSeconds(1_950_000_000)
const TO = plusSeconds(FROM, 30 * DAY)
const LOOKAROUND = 35n * BigInt(DAY) * 1_000_000n

const makeGateway = Effect.flatMap(GatewayRepository, (gateways) =>
  gateways.create({ plugin: "sandbox", name: "Cards", currency: "USD", method: unique("card"), type: "automatic", active: true, config: {} }))

/**
 * A payment the gateway completed at `at`, with the reference the gateway gave (none: its trx_id is the
 * reference), and its credit posted to the wallet: its journal entry debits gateway clearing by `gross`.
 */
const completedPayment = (gatewayId: GatewayId, walletId: WalletId, merchantId: MerchantId, at: Instant, gross: Amount, reference: string | null, environment: Environment = "sandbox") =>
  Effect.gen(function*() {
    const payments = yield* PaymentRepository
    const payment = yield* payments.insert(
      newPayment(merchantId, { amount: gross, environment, expiresAt: plusSeconds(at, 3600) }),
      plusSeconds(at, -60)
    )
    const attempts = yield* CheckoutAttempts
    yield* attempts.begin(payment.trxId, gatewayId, plusSeconds(at, -30), null)
    if (reference !== null) yield* attempts.setReference(payment.trxId, gatewayId, reference)
    const fee = Amount(gross / 50n)
    yield* payments.complete(payment.trxId, { outcome: "paid", fee, net: Amount(gross - fee), gatewayId }, at)
    yield* (yield* WalletRepository).post({ walletId, kind: "payment_credit", delta: Amount(gross - fee), fee, reference: payment.trxId })
    return payment
  })

const line = (lineNo: number, type: SettlementLineType, gatewayReference: string, amount: Amount, settledAt: Instant): SettlementLine => ({
  lineNo,
  type,
  gatewayReference,
  amount,
  currency: "USD",
  settledAt
})

const cents = (value: bigint) => Amount(value * 1_000_000n)

/** A dispute of the payment as its gateway reported it (none: one the kit opened itself, as in sandbox). */
const gatewayDispute = (payment: { readonly trxId: string; readonly merchantId: MerchantId }, gatewayId: GatewayId | null, fields: { readonly amount: Amount; readonly at: Instant; readonly status?: Dispute["status"]; readonly closedAt?: Instant }) =>
  Effect.gen(function*() {
    const dispute: Dispute = {
      id: `dp_${randomUUID().replaceAll("-", "")}`,
      merchantId: payment.merchantId,
      environment: "sandbox",
      paymentTrxId: payment.trxId,
      currency: "USD",
      amount: fields.amount,
      fee: units(1),
      reason: "fraudulent",
      status: fields.status ?? "needs_response",
      evidenceDueBy: plusSeconds(fields.at, 7 * DAY),
      evidenceText: null,
      evidenceFiles: [],
      gatewayId,
      gatewayDisputeId: gatewayId === null ? null : `du_${randomUUID().slice(0, 12)}`,
      createdAt: fields.at,
      updatedAt: fields.closedAt ?? fields.at
    }
    yield* (yield* DisputeRepository).insert(dispute)
    return dispute
  })

/** A payout paid at `at` through `rail` under the rail's reference. */
const paidPayout = (merchantId: MerchantId, fields: { readonly rail: string; readonly reference: string; readonly amount: Amount; readonly at: Instant }) =>
  Effect.gen(function*() {
    const destinationId = unique("pd")
    yield* (yield* PayoutDestinationRepository).create({
      id: destinationId, merchantId, environment: "sandbox", type: "stripe_account", accountHolder: "", ibanMasked: "", sealedIban: "", bic: null,
      accountId: unique("acct"), currency: "USD", createdAt: plusSeconds(fields.at, -DAY)
    }, 20)
    const payout: Payout = {
      id: `po_${randomUUID().replaceAll("-", "")}`, merchantId, environment: "sandbox", currency: "USD", amount: fields.amount, destinationId,
      status: "paid", reason: null, reference: fields.reference, rail: fields.rail, approvedAt: plusSeconds(fields.at, -60),
      createdAt: plusSeconds(fields.at, -120), updatedAt: fields.at
    }
    yield* (yield* PayoutRepository).insert(payout)
    return payout
  })

export const reconciliationCases = (it: StorageIt) => {
  it.effect("reconciliation: each outcome, by reference and amount, scoped to the gateway, environment and period", () =>
    Effect.gen(function*() {
      const gateway = yield* makeGateway
      const other = yield* makeGateway
      const merchant = yield* makeMerchant()
      const wallet = yield* makeWallet(merchant.id)
      const production = yield* makeWallet(merchant.id, { environment: "production" })
      const at = (days: number) => plusSeconds(FROM, days * DAY)
      const ref = (name: string) => `${name}_${randomUUID().slice(0, 8)}`
      const [r1, r2, r4, ghost, re1] = [ref("cs_1"), ref("cs_2"), ref("cs_4"), ref("cs_ghost"), ref("re_1")]
      const p1 = yield* completedPayment(gateway.id, wallet.id, merchant.id, at(1), units(100), r1)
      yield* completedPayment(gateway.id, wallet.id, merchant.id, at(2), units(50), r2)
      const p3 = yield* completedPayment(gateway.id, wallet.id, merchant.id, at(3), units(20), null)
      // Completed the day before the period, settled inside it: the line still finds it.
      yield* completedPayment(gateway.id, wallet.id, merchant.id, at(-1), units(7), r4)
      // Before the period and named by no line: not the period's business.
      yield* completedPayment(gateway.id, wallet.id, merchant.id, at(-2), units(8), null)
      // Another gateway's, and the production book's: never this report's.
      yield* completedPayment(other.id, wallet.id, merchant.id, at(4), units(9), null)
      yield* completedPayment(gateway.id, production.id, merchant.id, at(4), units(9), null, "production")

      const refund = yield* (yield* RefundRepository).insert({
        refundTrxId: unique("SANDBOX_RF"),
        paymentTrxId: p1.trxId,
        merchantId: merchant.id,
        environment: "sandbox",
        amount: units(10),
        currency: "USD",
        reason: null,
        refRefund: null,
        totalRefunded: units(10),
        remainingRefund: units(90)
      })
      const gatewayRefunds = yield* GatewayRefunds
      yield* gatewayRefunds.enqueue(newGatewayRefund(refund, gateway.id, at(5)))
      yield* gatewayRefunds.record(refund.refundTrxId, { status: "succeeded", attempts: 1, nextAttemptAt: null, gatewayReference: re1, message: null, at: at(5) })
      yield* (yield* WalletRepository).post({ walletId: wallet.id, kind: "refund_debit", delta: Amount(-units(10)), reference: refund.refundTrxId })

      const repository = yield* ReconciliationRepository
      const id = `rr_${randomUUID().replaceAll("-", "")}`
      const report = yield* repository.reconcile({
        id,
        gatewayId: gateway.id,
        gatewayCode: gateway.code,
        environment: "sandbox",
        from: FROM,
        to: TO,
        kitFrom: FROM - LOOKAROUND as Instant,
        kitTo: TO + LOOKAROUND as Instant,
        source: "upload",
        lines: [
          line(2, "payment", r1, units(100), at(2)),
          line(3, "payment", r2, cents(4999n), at(3)),
          line(4, "payment", r4, units(7), at(1)),
          line(5, "payment", ghost, units(10), at(4)),
          line(6, "fee", r1, cents(-290n), at(2)),
          line(7, "refund", re1, Amount(-units(10)), at(6))
        ],
        createdAt: at(31)
      })
      expect(report).toMatchObject({
        id,
        gatewayId: gateway.id,
        environment: "sandbox",
        from: FROM,
        to: TO,
        lineCount: 6,
        counts: { matched: 3, amount_differs: 1, missing_in_kit: 1, missing_at_gateway: 1, gateway_only: 1 }
      })
      expect(yield* repository.find(id)).toEqual(Option.some(report))

      const differs = yield* repository.lines({ reportId: id, outcome: "amount_differs", limit: 10 })
      expect(differs).toMatchObject([{ lineNo: 3, gatewayReference: r2, gatewayAmount: cents(4999n), kitAmount: units(50), kitCurrency: "USD" }])
      const missing = yield* repository.lines({ reportId: id, outcome: "missing_at_gateway", limit: 10 })
      expect(missing).toEqual([{
        lineNo: 8,
        outcome: "missing_at_gateway",
        type: "payment",
        gatewayReference: p3.trxId,
        gatewayAmount: null,
        currency: "USD",
        settledAt: null,
        kitRecord: p3.trxId,
        kitAmount: units(20),
        kitCurrency: "USD",
        kitAt: at(3)
      }])
      const refunded = yield* repository.lines({ reportId: id, afterLine: 6, limit: 1 })
      expect(refunded).toMatchObject([{ lineNo: 7, outcome: "matched", type: "refund", kitRecord: refund.refundTrxId, kitAmount: Amount(-units(10)) }])
      expect((yield* repository.lines({ reportId: id, outcome: "missing_in_kit", limit: 10 })).map((each) => each.gatewayReference)).toEqual([ghost])
      expect((yield* repository.lines({ reportId: id, outcome: "gateway_only", limit: 10 })).map((each) => each.gatewayAmount)).toEqual([cents(-290n)])
      expect((yield* repository.lines({ reportId: id, limit: 100 })).map((each) => each.lineNo)).toEqual([2, 3, 4, 5, 6, 7, 8])
    }))

  it.effect("reconciliation: a dispute's withdrawal and reinstatement by the gateway's dispute id and sign, Connect transfers by their reference", () =>
    Effect.gen(function*() {
      const gateway = yield* (yield* GatewayRepository).create({
        plugin: "stripe-checkout", name: "Stripe", currency: "USD", method: unique("card"), type: "automatic", active: true, config: {}
      })
      const merchant = yield* makeMerchant()
      const wallet = yield* makeWallet(merchant.id)
      const at = (days: number) => plusSeconds(FROM, days * DAY)
      const session = `cs_${randomUUID().slice(0, 8)}`
      const payment = yield* completedPayment(gateway.id, wallet.id, merchant.id, at(1), units(100), session)
      const disputed = { trxId: payment.trxId, merchantId: merchant.id }
      const won = yield* gatewayDispute(disputed, gateway.id, { amount: units(40), at: at(2), status: "won", closedAt: at(9) })
      const open = yield* gatewayDispute(disputed, gateway.id, { amount: units(20), at: at(3) })
      // Opened by the kit itself: no gateway saw it, so no report has it.
      yield* gatewayDispute(disputed, null, { amount: units(5), at: at(3) })
      const transfer = yield* paidPayout(merchant.id, { rail: "stripe-checkout", reference: `tr_${randomUUID().slice(0, 8)}`, amount: units(30), at: at(6) })
      const unsettled = yield* paidPayout(merchant.id, { rail: "stripe-checkout", reference: `tr_${randomUUID().slice(0, 8)}`, amount: units(12), at: at(8) })
      // The manual rail's bank transfer is no line of Stripe's: never missing at it.
      yield* paidPayout(merchant.id, { rail: "manual", reference: unique("BANK"), amount: units(15), at: at(7) })

      const repository = yield* ReconciliationRepository
      const id = `rr_${randomUUID().replaceAll("-", "")}`
      const report = yield* repository.reconcile({
        id,
        gatewayId: gateway.id,
        gatewayCode: gateway.code,
        environment: "sandbox",
        from: FROM,
        to: TO,
        kitFrom: FROM - LOOKAROUND as Instant,
        kitTo: TO + LOOKAROUND as Instant,
        source: "gateway",
        lines: [
          line(1, "payment", session, units(100), at(2)),
          line(2, "dispute", won.gatewayDisputeId!, Amount(-units(40)), at(2)),
          line(3, "fee", won.gatewayDisputeId!, Amount(-units(15)), at(2)),
          line(4, "dispute", won.gatewayDisputeId!, units(40), at(9)),
          // The gateway withdrew a dollar less than the kit holds for this one.
          line(5, "dispute", open.gatewayDisputeId!, Amount(-units(19)), at(3)),
          line(6, "payout", transfer.reference!, Amount(-units(30)), at(6)),
          line(7, "payout", "po_to_the_platform_bank", Amount(-units(500)), at(10))
        ],
        createdAt: at(31)
      })
      expect(report.counts).toEqual({ matched: 4, amount_differs: 1, missing_in_kit: 0, missing_at_gateway: 1, gateway_only: 2 })
      const all = yield* repository.lines({ reportId: id, limit: 100 })
      expect(all.map(({ lineNo, outcome, kitRecord, kitAmount }) => ({ lineNo, outcome, kitRecord, kitAmount }))).toEqual([
        { lineNo: 1, outcome: "matched", kitRecord: payment.trxId, kitAmount: units(100) },
        { lineNo: 2, outcome: "matched", kitRecord: won.id, kitAmount: Amount(-units(40)) },
        { lineNo: 3, outcome: "gateway_only", kitRecord: null, kitAmount: null },
        { lineNo: 4, outcome: "matched", kitRecord: won.id, kitAmount: units(40) },
        { lineNo: 5, outcome: "amount_differs", kitRecord: open.id, kitAmount: Amount(-units(20)) },
        { lineNo: 6, outcome: "matched", kitRecord: transfer.id, kitAmount: Amount(-units(30)) },
        { lineNo: 7, outcome: "gateway_only", kitRecord: null, kitAmount: null },
        { lineNo: 8, outcome: "missing_at_gateway", kitRecord: unsettled.id, kitAmount: Amount(-units(12)) }
      ])
      expect(all[1]!.kitAt).toBe(at(2))
      expect(all[3]!.kitAt).toBe(at(9))
      expect(all[7]).toMatchObject({ type: "payout", gatewayReference: unsettled.reference, kitAt: at(8) })
    }))

  it.effect("reconciliation: reports listed newest first, paged by position", () =>
    Effect.gen(function*() {
      const gateway = yield* makeGateway
      const repository = yield* ReconciliationRepository
      const created = (second: number) =>
        repository.reconcile({
          id: `rr_${randomUUID().replaceAll("-", "")}`,
          gatewayId: gateway.id,
          gatewayCode: gateway.code,
          environment: "production",
          from: FROM,
          to: TO,
          kitFrom: FROM,
          kitTo: TO,
          source: "gateway",
          lines: [],
          // Far in the future: newer than every other case's report.
          createdAt: plusSeconds(fromSeconds(4_000_000_000), second)
        })
      const older = yield* created(1)
      const newer = yield* created(2)
      expect(newer.counts).toEqual({ matched: 0, missing_in_kit: 0, missing_at_gateway: 0, amount_differs: 0, gateway_only: 0 })
      expect((yield* repository.list({ limit: 2 })).map((report) => report.id)).toEqual([newer.id, older.id])
      expect((yield* repository.list({ limit: 1, before: { createdAt: newer.createdAt, id: newer.id } }))[0]?.id).toBe(older.id)
    }))
}

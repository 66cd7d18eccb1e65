import { Effect, Either, ManagedRuntime, Option } from "effect"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  GATEWAY_CLEARING,
  PLATFORM_ADJUSTMENTS,
  PLATFORM_FEES,
  PLATFORM_PAYOUTS_PAID,
  disputeHoldAccount,
  payoutsInTransitAccount,
  reserveHoldAccount,
  walletAccount
} from "../../core/ledger/account.js"
import { BalanceRepository } from "../../core/balances/balance-repository.js"
import { replacePayoutSettings } from "../../core/balances/payout-settings-admin.js"
import { releaseDueReserves } from "../../core/balances/reserve-holds.js"
import { now, plusSeconds } from "../../core/shared/instant.js"
import { trialBalance } from "../../core/ledger/trial-balance.js"
import { closeSandboxDispute, closeOpenDispute } from "../../core/disputes/close-dispute.js"
import { DisputeRepository } from "../../core/disputes/dispute-repository.js"
import { lockedForDispute, openOnPayment, openSandboxDispute, undisputedRest } from "../../core/disputes/open-dispute.js"
import { Transactor } from "../../core/shared/transactor.js"
import type { Merchant } from "../../core/merchants/merchant.js"
import { createMerchant, replaceCurrencies, updateMerchant } from "../../core/merchants/merchant-admin.js"
import { finishPayment } from "../../core/payments/finish-payment.js"
import { initiatePayment } from "../../core/payments/initiate-payment.js"
import { operatePayout } from "../../core/payouts/operate-payout.js"
import { createPayoutDestination } from "../../core/payouts/payout-destinations.js"
import { requestPayout } from "../../core/payouts/request-payout.js"
import { refundPayment } from "../../core/refunds/refund-payment.js"
import type { Environment } from "../../core/shared/environment.js"
import { adjustWallet, createWallet } from "../../core/wallets/wallet-admin.js"
import { WalletRepository } from "../../core/wallets/wallet-repository.js"
import { kitLayer, type StoreConfig } from "../../hosts/kit-layer.js"
import { testKitConfig } from "./test-kit-config.js"

/** Two books of each environment: a currency of two decimals and one of none. */
const BOOKS = [
  { environment: "sandbox", currency: "USD", exponent: 2 },
  { environment: "sandbox", currency: "JPY", exponent: 0 },
  { environment: "production", currency: "USD", exponent: 2 },
  { environment: "production", currency: "JPY", exponent: 0 }
] as const

type Book = typeof BOOKS[number]

/** Minor units as the decimal text a merchant sends: 12345 USD cents is "123.45". */
const decimal = (minor: number, exponent: number) => {
  const sign = minor < 0 ? "-" : ""
  const digits = String(Math.abs(minor)).padStart(exponent + 1, "0")
  return exponent === 0 ? `${sign}${digits}` : `${sign}${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`
}

const book = fc.constantFrom(...BOOKS)

/** Fee settings up to 10% + 5.00 (or 500 yen): small payments are often all fee, their net zero. */
const fees = fc.record({
  percentHundredths: fc.integer({ min: 0, max: 1_000 }),
  fixedMinor: fc.integer({ min: 0, max: 500 }),
  // The merchant's dispute fee, up to 20.00 (2000 yen): often more than what is left in the wallet.
  disputeMinor: fc.integer({ min: 0, max: 2_000 })
})

type Step =
  | { readonly kind: "pay"; readonly book: Book; readonly minor: number; readonly paid: boolean }
  | { readonly kind: "refund"; readonly which: number; readonly minor: number | null }
  | { readonly kind: "adjust"; readonly book: Book; readonly minor: number }
  | { readonly kind: "fees"; readonly fees: typeof fees extends fc.Arbitrary<infer F> ? F : never }
  | { readonly kind: "payout"; readonly book: Book; readonly minor: number }
  | { readonly kind: "settle"; readonly which: number; readonly end: "paid" | "rejected" | "failed" }
  | { readonly kind: "reserve"; readonly percentHundredths: number; readonly days: number }
  | { readonly kind: "release" }
  | { readonly kind: "dispute"; readonly which: number; readonly minor: number | null }
  | { readonly kind: "close"; readonly which: number; readonly outcome: "won" | "lost" }

const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("pay" as const), book, minor: fc.integer({ min: 100, max: 2_000_000 }), paid: fc.boolean() }) },
  // A payment already made, by index modulo those made; a part (in minor units) or all that is left.
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("refund" as const), which: fc.nat(), minor: fc.option(fc.integer({ min: 1, max: 1_500_000 }), { nil: null }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("adjust" as const), book, minor: fc.integer({ min: -300_000, max: 300_000 }).filter((minor) => minor !== 0) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("fees" as const), fees }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("payout" as const), book, minor: fc.integer({ min: 1, max: 1_500_000 }) }) },
  // A payout already asked for, by index modulo those asked: paid (approved, then paid), rejected, or failed (approved, then failed).
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("settle" as const), which: fc.nat(), end: fc.constantFrom("paid" as const, "rejected" as const, "failed" as const) }) },
  // A rolling reserve of up to 50 % for up to 3 days (0: none held) for the payments that follow; then every hold released.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("reserve" as const), percentHundredths: fc.integer({ min: 0, max: 5_000 }), days: fc.integer({ min: 0, max: 3 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("release" as const) }) },
  // A payment already made, disputed for a part or all that is left (whatever the wallet holds); a dispute opened, closed won or lost.
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("dispute" as const), which: fc.nat(), minor: fc.option(fc.integer({ min: 1, max: 1_500_000 }), { nil: null }) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("close" as const), which: fc.nat(), outcome: fc.constantFrom("won" as const, "lost" as const) }) }
)

/** The refusals a random step may meet; anything else fails the property. */
const EXPECTED_REFUSALS = new Set([
  "PaymentNotRefundable", "PaymentFullyRefunded", "RefundExceedsBalance", "WalletInsufficientForRefund", "InsufficientBalance", "ValidationFailed",
  "PayoutExceedsBalance", "PayoutTransitionRefused", "DisputeRefused", "DisputeTransitionRefused", "RefundHeldByDisputes"
])

const feeInput = (settings: typeof fees extends fc.Arbitrary<infer F> ? F : never) => ({
  feePercent: { kind: "string" as const, value: decimal(settings.percentHundredths, 2) },
  feeFixed: { kind: "string" as const, value: decimal(settings.fixedMinor, 2) },
  disputeFee: { kind: "string" as const, value: decimal(settings.disputeMinor, 2) }
})

/**
 * A dispute on any payment: in sandbox as an operator opens one; in production as a gateway's report
 * does (no operator route opens one there), for the amount asked or all that is left.
 */
const openDispute = (trxId: string, environment: Environment, amount: string | undefined) =>
  environment === "sandbox"
    ? openSandboxDispute(trxId, { amount: amount === undefined ? undefined : { kind: "string", value: amount }, reason: "property" })
    : Effect.flatMap(Transactor, ({ withTransaction }) =>
      withTransaction(Effect.gen(function*() {
        const { payment, held } = yield* lockedForDispute(trxId)
        const left = undisputedRest(payment, held)
        if (left === 0n) return yield* Effect.fail({ _tag: "DisputeRefused" as const })
        return yield* openOnPayment(payment, { amount: left, reason: "property" })
      })))

const closeDispute = (id: string, environment: Environment, outcome: "won" | "lost") =>
  environment === "sandbox"
    ? closeSandboxDispute(id, outcome)
    : Effect.flatMap(Transactor, ({ withTransaction }) =>
      withTransaction(Effect.flatMap(Effect.flatMap(DisputeRepository, (disputes) => disputes.findForUpdate(id)), (found) =>
        closeOpenDispute(Option.getOrThrow(found), outcome))))

/**
 * Issue 35's property on a real kit: random sequences of payments (paid or failed, under fee settings
 * that change), full and partial refunds, adjustments, payouts (asked for, then paid, rejected or
 * failed), rolling reserves (held from payments under settings that change, then released), and
 * disputes (opened whatever the wallet holds, so balances go below zero; closed won or lost), through
 * the use cases, after which every book sums to zero, each wallet's account is minus its balance, and
 * the platform's accounts moved by what the sequence says: clearing by the gross paid less refunds,
 * dispute fees and disputes lost, fees by the fees, adjustments by the corrections, payouts in transit
 * by those not yet ended, payouts paid by those paid, the reserve hold by minus the holds not yet
 * released, dispute holds by those open.
 */
export const ledgerPropertySuite = (name: string, store: () => StoreConfig) =>
  describe(`ledger (property): ${name}`, () => {
    let runtime: ManagedRuntime.ManagedRuntime<any, any>
    const run = <A, E>(effect: Effect.Effect<A, E, any>): Promise<A> => runtime.runPromise(effect as Effect.Effect<A, E, never>)
    beforeAll(() => {
      runtime = ManagedRuntime.make(kitLayer(testKitConfig(store())))
    })
    afterAll(() => runtime.dispose())

    const accountsOf = (of: Book) =>
      run(trialBalance(of.environment, of.currency))

    it("after any sequence every book sums to zero and each wallet's account is minus its balance", async () => {
      let shops = 0
      await fc.assert(
        fc.asyncProperty(fees, fc.array(step, { minLength: 1, maxLength: 12 }), async (initialFees, steps) => {
          const merchant: Merchant = await run(Effect.gen(function*() {
            const merchant = yield* createMerchant({ name: `Ledger shop ${++shops}`, status: "approved", ...feeInput(initialFees) })
            yield* replaceCurrencies(merchant.id, ["USD", "JPY"])
            for (const each of BOOKS) {
              const wallet = yield* createWallet(merchant.id, each.currency, each.environment)
              // Something to pay out from the first step, so payouts are made, not only refused.
              yield* adjustWallet(wallet.id, { kind: "string", value: decimal(2_000_000, each.exponent) }, "float")
            }
            return merchant
          }))
          const destinations = new Map<Book, string>()
          for (const each of BOOKS) {
            const destination = await run(createPayoutDestination({ merchant, environment: each.environment }, {
              accountHolder: "Ledger shop", iban: "DE89370400440532013000", bic: null, currency: each.currency
            }))
            destinations.set(each, destination.id)
          }
          const before = new Map<Book, ReadonlyMap<string, bigint>>()
          for (const each of BOOKS) before.set(each, new Map((await accountsOf(each)).accounts.map((a) => [a.account, a.balance])))

          // What the sequence should have moved, per book, from the payments' own priced fees.
          const expected = new Map(BOOKS.map((each) => [each, { clearing: 0n, fees: 0n, adjustments: 0n, inTransit: 0n, payoutsPaid: 0n, held: 0n }]))
          const paid: Array<{ readonly trxId: string; readonly book: Book }> = []
          const payouts: Array<{ readonly id: string; readonly book: Book; readonly amount: bigint }> = []
          const disputes: Array<{ readonly id: string; readonly book: Book; readonly amount: bigint }> = []
          let counter = 0
          for (const each of steps) {
            const outcome = await run(Effect.either(Effect.gen(function*() {
              switch (each.kind) {
                case "pay": {
                  const owner = { merchant, environment: each.book.environment as Environment }
                  const session = yield* initiatePayment(owner, {
                    amount: { kind: "string", value: decimal(each.minor, each.book.exponent) },
                    currency: each.book.currency,
                    refTrx: `ledger-${shops}-${++counter}`,
                    successRedirect: "https://shop.example/ok",
                    cancelRedirect: "https://shop.example/cancel",
                    ipnUrl: "https://shop.example/ipn",
                    description: null,
                    customerName: null,
                    customerEmail: null,
                    keywords: []
                  })
                  const finished = yield* finishPayment(session.payment.trxId, { outcome: each.paid ? "paid" : "declined", gatewayId: null })
                  if (finished.status === "success") {
                    paid.push({ trxId: finished.trxId, book: each.book })
                    const moved = expected.get(each.book)!
                    moved.clearing += finished.amount
                    moved.fees -= finished.fee ?? 0n
                  }
                  return
                }
                case "refund": {
                  if (paid.length === 0) return
                  const target = paid[each.which % paid.length]!
                  const refunded = yield* refundPayment({ merchant, environment: target.book.environment }, {
                    trxId: target.trxId,
                    amount: each.minor === null ? undefined : { kind: "string", value: decimal(each.minor, target.book.exponent) },
                    reason: null,
                    refRefund: null
                  })
                  expected.get(target.book)!.clearing -= refunded.refund.amount
                  return
                }
                case "adjust": {
                  const wallet = Option.getOrThrow(yield* (yield* WalletRepository).find(merchant.id, each.book.currency, each.book.environment))
                  const { entry } = yield* adjustWallet(wallet.id, { kind: "string", value: decimal(each.minor, each.book.exponent) }, "property")
                  expected.get(each.book)!.adjustments += entry.delta
                  return
                }
                case "fees":
                  yield* updateMerchant(merchant.id, feeInput(each.fees))
                  return
                case "payout": {
                  const payout = yield* requestPayout({ merchant, environment: each.book.environment }, {
                    amount: { kind: "string", value: decimal(each.minor, each.book.exponent) },
                    currency: each.book.currency,
                    destinationId: destinations.get(each.book)!
                  })
                  payouts.push({ id: payout.id, book: each.book, amount: payout.amount })
                  expected.get(each.book)!.inTransit -= payout.amount
                  return
                }
                case "settle": {
                  if (payouts.length === 0) return
                  const target = payouts[each.which % payouts.length]!
                  if (each.end === "rejected") yield* operatePayout(target.id, "reject", { reason: "property" })
                  else {
                    yield* operatePayout(target.id, "approve")
                    yield* operatePayout(target.id, each.end === "paid" ? "mark-paid" : "mark-failed", each.end === "paid" ? { reference: "BANK" } : { reason: "property" })
                  }
                  const moved = expected.get(target.book)!
                  moved.inTransit += target.amount
                  if (each.end === "paid") moved.payoutsPaid -= target.amount
                  return
                }
                case "reserve":
                  yield* replacePayoutSettings(merchant.id, {
                    reservePercent: { kind: "string", value: decimal(each.percentHundredths, 2) },
                    reserveDays: each.days
                  })
                  return
                case "release":
                  // Far past any hold's days: every hold of the store is due.
                  yield* releaseDueReserves(plusSeconds(yield* now, 400 * 86_400), 10_000)
                  return
                case "dispute": {
                  if (paid.length === 0) return
                  const target = paid[each.which % paid.length]!
                  const dispute = yield* openDispute(target.trxId, target.book.environment, each.minor === null ? undefined : decimal(each.minor, target.book.exponent))
                  disputes.push({ id: dispute.id, book: target.book, amount: dispute.amount })
                  const moved = expected.get(target.book)!
                  moved.held -= dispute.amount
                  moved.clearing -= dispute.fee
                  return
                }
                case "close": {
                  if (disputes.length === 0) return
                  const target = disputes[each.which % disputes.length]!
                  yield* closeDispute(target.id, target.book.environment, each.outcome)
                  const moved = expected.get(target.book)!
                  moved.held += target.amount
                  if (each.outcome === "lost") moved.clearing -= target.amount
                  return
                }
              }
            })))
            if (Either.isLeft(outcome)) expect(EXPECTED_REFUSALS.has((outcome.left as { readonly _tag: string })._tag), String(outcome.left)).toBe(true)
          }

          for (const each of BOOKS) {
            const { accounts, sum } = await accountsOf(each)
            expect(sum, `${each.environment} ${each.currency} sums to zero`).toBe(0n)
            const balances = new Map(accounts.map((a) => [a.account, a.balance]))
            const wallet = Option.getOrThrow(await run(Effect.flatMap(WalletRepository, (wallets) => wallets.find(merchant.id, each.currency, each.environment))))
            expect(balances.get(walletAccount(merchant.id)) ?? 0n, `${each.environment} ${each.currency} wallet`).toBe(-wallet.balance)
            const movedBy = (account: string) => (balances.get(account) ?? 0n) - (before.get(each)!.get(account) ?? 0n)
            const moved = expected.get(each)!
            expect([movedBy(GATEWAY_CLEARING), movedBy(PLATFORM_FEES), movedBy(PLATFORM_ADJUSTMENTS)]).toEqual([moved.clearing, moved.fees, moved.adjustments])
            expect([movedBy(payoutsInTransitAccount(merchant.id)), movedBy(PLATFORM_PAYOUTS_PAID)]).toEqual([moved.inTransit, moved.payoutsPaid])
            // The reserve hold account is minus what the merchant's unreleased holds add up to.
            const reserved = await run(Effect.flatMap(BalanceRepository, (holds) =>
              holds.reserved({ merchantId: merchant.id, environment: each.environment, currency: each.currency })))
            expect(balances.get(reserveHoldAccount(merchant.id)) ?? 0n, `${each.environment} ${each.currency} reserve`).toBe(-reserved)
            expect(movedBy(disputeHoldAccount(merchant.id)), `${each.environment} ${each.currency} dispute hold`).toBe(moved.held)
          }
        }),
        { numRuns: 30 }
      )
    }, 120_000)
  })

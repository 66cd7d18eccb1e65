import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Amount, MAX_AMOUNT } from "../money/amount.js"
import { priceFee } from "../money/fees.js"
import { MerchantId } from "../shared/ids.js"
import { LedgerEntryKind, type LedgerPosting, mayOverdraw } from "../wallets/wallet.js"
import { WalletId } from "../shared/ids.js"
import {
  GATEWAY_CLEARING,
  isWalletAccount,
  OPENING_BALANCES,
  PLATFORM_ADJUSTMENTS,
  PLATFORM_FEES,
  PLATFORM_PAYOUTS_PAID,
  disputeHoldAccount,
  walletAccount
} from "./account.js"
import { isBalanced, sumOfLines } from "./journal.js"
import { type Movement, movementLines, movementOfPosting, walletDelta } from "./movements.js"

const merchantId = fc.integer({ min: 1, max: 2 ** 40 }).map(MerchantId)
const amount = fc.bigInt({ min: 1n, max: MAX_AMOUNT }).map(Amount)
const signed = fc.bigInt({ min: -MAX_AMOUNT, max: MAX_AMOUNT }).filter((delta) => delta !== 0n).map(Amount)

/** A payment's fee as the use case prices it: any percent and fixed fee, any exponent, capped at the amount. */
const payment = fc.record({
  merchantId,
  gross: amount,
  percent: fc.bigInt({ min: 0n, max: 100n * 100_000_000n }),
  fixed: fc.bigInt({ min: 0n, max: 1_000n * 100_000_000n }),
  exponent: fc.integer({ min: 0, max: 8 })
}).map(({ merchantId, gross, percent, fixed, exponent }): Movement => {
  const unit = 10n ** BigInt(8 - exponent)
  const whole = Amount((gross / unit) * unit || unit)
  const { fee } = priceFee({ amount: whole, percent: Amount(percent), fixed: Amount((fixed / unit) * unit), exponent })
  return { kind: "payment_completed", merchantId, gross: whole, fee }
})

const movement: fc.Arbitrary<Movement> = fc.oneof(
  payment,
  fc.record({ kind: fc.constant("refund" as const), merchantId, amount }),
  fc.record({ kind: fc.constant("adjustment" as const), merchantId, delta: signed }),
  fc.record({ kind: fc.constant("opening" as const), merchantId, balance: amount }),
  fc.record({ kind: fc.constantFrom("payout_requested" as const, "payout_paid" as const, "payout_returned" as const), merchantId, amount }),
  fc.record({ kind: fc.constantFrom("reserve_held" as const, "reserve_released" as const), merchantId, amount }),
  fc.record({ kind: fc.constant("dispute_opened" as const), merchantId, amount, fee: fc.oneof(fc.constant(Amount(0n)), amount) }),
  fc.record({ kind: fc.constantFrom("dispute_won" as const, "dispute_lost" as const), merchantId, amount })
)

describe("journal lines of a movement", () => {
  it("(property) every movement's entry balances exactly, names each account once and has no empty line", () => {
    fc.assert(fc.property(movement, (each) => {
      const lines = movementLines(each)
      expect(sumOfLines(lines)).toBe(0n)
      expect(isBalanced(lines)).toBe(true)
      expect(lines.length).toBeGreaterThan(0)
    }), { numRuns: 2_000 })
  })

  it("(property) a wallet posting moves the wallet's account by exactly minus its delta, and touches no other wallet", () => {
    const posting = fc.oneof(
      fc.record({ delta: amount, fee: amount }).map(({ delta, fee }): LedgerPosting => ({ walletId: WalletId(1), kind: "payment_credit", delta, fee, reference: "t" })),
      amount.map((debit): LedgerPosting => ({ walletId: WalletId(1), kind: "refund_debit", delta: Amount(-debit), reference: "r" })),
      signed.map((delta): LedgerPosting => ({ walletId: WalletId(1), kind: "adjustment", delta, reference: "admin" })),
      amount.map((debit): LedgerPosting => ({ walletId: WalletId(1), kind: "payout_debit", delta: Amount(-debit), reference: "po" })),
      amount.map((credit): LedgerPosting => ({ walletId: WalletId(1), kind: "payout_return", delta: credit, reference: "po" })),
      amount.map((debit): LedgerPosting => ({ walletId: WalletId(1), kind: "reserve_hold", delta: Amount(-debit), reference: "t" })),
      amount.map((credit): LedgerPosting => ({ walletId: WalletId(1), kind: "reserve_release", delta: credit, reference: "t" })),
      fc.record({ held: amount, fee: fc.oneof(fc.constant(Amount(0n)), amount) }).map(({ held, fee }): LedgerPosting =>
        ({ walletId: WalletId(1), kind: "dispute_debit", delta: Amount(-(held + fee)), fee, reference: "dp" })),
      amount.map((credit): LedgerPosting => ({ walletId: WalletId(1), kind: "dispute_return", delta: credit, reference: "dp" }))
    )
    fc.assert(fc.property(posting, merchantId, (each, merchant) => {
      const moved = movementOfPosting(each, merchant)
      expect(walletDelta(moved)).toBe(each.delta)
      const lines = movementLines(moved)
      expect(isBalanced(lines)).toBe(true)
      expect(lines.filter((line) => isWalletAccount(line.account)).map((line) => line.account)).toEqual([walletAccount(merchant)])
    }), { numRuns: 1_000 })
  })

  it("books a completed payment as clearing +gross, fees -fee, wallet -net", () => {
    const merchant = MerchantId(12)
    expect(movementLines({ kind: "payment_completed", merchantId: merchant, gross: Amount(100n), fee: Amount(3n) })).toEqual([
      { account: GATEWAY_CLEARING, amount: 100n },
      { account: PLATFORM_FEES, amount: -3n },
      { account: "merchant:12:wallet", amount: -97n }
    ])
  })

  it("books a payment whose net is zero with its fee, and no wallet line", () => {
    const lines = movementLines({ kind: "payment_completed", merchantId: MerchantId(12), gross: Amount(5n), fee: Amount(5n) })
    expect(lines).toEqual([{ account: GATEWAY_CLEARING, amount: 5n }, { account: PLATFORM_FEES, amount: -5n }])
  })

  it("books a refund against clearing, an adjustment against the platform's adjustments, an opening against opening balances", () => {
    const merchant = MerchantId(7)
    expect(movementLines({ kind: "refund", merchantId: merchant, amount: Amount(30n) })).toEqual([
      { account: "merchant:7:wallet", amount: 30n },
      { account: GATEWAY_CLEARING, amount: -30n }
    ])
    expect(movementLines({ kind: "adjustment", merchantId: merchant, delta: Amount(-4n) })).toEqual([
      { account: "merchant:7:wallet", amount: 4n },
      { account: PLATFORM_ADJUSTMENTS, amount: -4n }
    ])
    expect(movementLines({ kind: "opening", merchantId: merchant, balance: Amount(9n) })).toEqual([
      { account: "merchant:7:wallet", amount: -9n },
      { account: OPENING_BALANCES, amount: 9n }
    ])
  })

  it("books a payout through the merchant's payouts in transit: requested, then paid out of the platform, or returned", () => {
    const merchant = MerchantId(7)
    expect(movementLines({ kind: "payout_requested", merchantId: merchant, amount: Amount(40n) })).toEqual([
      { account: "merchant:7:wallet", amount: 40n },
      { account: "merchant:7:payouts-in-transit", amount: -40n }
    ])
    expect(movementLines({ kind: "payout_paid", merchantId: merchant, amount: Amount(40n) })).toEqual([
      { account: "merchant:7:payouts-in-transit", amount: 40n },
      { account: PLATFORM_PAYOUTS_PAID, amount: -40n }
    ])
    expect(movementLines({ kind: "payout_returned", merchantId: merchant, amount: Amount(40n) })).toEqual([
      { account: "merchant:7:wallet", amount: -40n },
      { account: "merchant:7:payouts-in-transit", amount: 40n }
    ])
  })

  it("books a reserve through the merchant's reserve hold: held out of the wallet, released back into it", () => {
    const merchant = MerchantId(7)
    expect(movementLines({ kind: "reserve_held", merchantId: merchant, amount: Amount(3n) })).toEqual([
      { account: "merchant:7:wallet", amount: 3n },
      { account: "merchant:7:reserve-hold", amount: -3n }
    ])
    expect(movementLines({ kind: "reserve_released", merchantId: merchant, amount: Amount(3n) })).toEqual([
      { account: "merchant:7:wallet", amount: -3n },
      { account: "merchant:7:reserve-hold", amount: 3n }
    ])
  })

  it("(property) a payout requested and then paid or returned leaves nothing in transit", () => {
    fc.assert(fc.property(merchantId, amount, fc.constantFrom("payout_paid" as const, "payout_returned" as const), (merchant, each, end) => {
      const lines = [...movementLines({ kind: "payout_requested", merchantId: merchant, amount: each }), ...movementLines({ kind: end, merchantId: merchant, amount: each })]
      const inTransit = lines.filter((line) => line.account === `merchant:${merchant}:payouts-in-transit`).reduce((sum, line) => sum + line.amount, 0n)
      expect(inTransit).toBe(0n)
      const wallet = lines.filter((line) => line.account === walletAccount(merchant)).reduce((sum, line) => sum + line.amount, 0n)
      expect(wallet).toBe(end === "payout_returned" ? 0n : each)
    }), { numRuns: 500 })
  })

  it("books a dispute: amount to the hold and fee to the gateway at once; won back to the wallet, lost to the gateway", () => {
    const merchant = MerchantId(7)
    expect(movementLines({ kind: "dispute_opened", merchantId: merchant, amount: Amount(50n), fee: Amount(15n) })).toEqual([
      { account: "merchant:7:wallet", amount: 65n },
      { account: "merchant:7:dispute-hold", amount: -50n },
      { account: GATEWAY_CLEARING, amount: -15n }
    ])
    expect(movementLines({ kind: "dispute_opened", merchantId: merchant, amount: Amount(50n), fee: Amount(0n) })).toEqual([
      { account: "merchant:7:wallet", amount: 50n },
      { account: "merchant:7:dispute-hold", amount: -50n }
    ])
    expect(movementLines({ kind: "dispute_won", merchantId: merchant, amount: Amount(50n) })).toEqual([
      { account: "merchant:7:dispute-hold", amount: 50n },
      { account: "merchant:7:wallet", amount: -50n }
    ])
    expect(movementLines({ kind: "dispute_lost", merchantId: merchant, amount: Amount(50n) })).toEqual([
      { account: "merchant:7:dispute-hold", amount: 50n },
      { account: GATEWAY_CLEARING, amount: -50n }
    ])
  })

  it("(property) a dispute opened and then won or lost leaves nothing held; won costs the wallet the fee, lost the amount and the fee", () => {
    fc.assert(fc.property(merchantId, amount, fc.oneof(fc.constant(Amount(0n)), amount), fc.constantFrom("dispute_won" as const, "dispute_lost" as const), (merchant, each, fee, end) => {
      const lines = [...movementLines({ kind: "dispute_opened", merchantId: merchant, amount: each, fee }), ...movementLines({ kind: end, merchantId: merchant, amount: each })]
      const of = (account: string) => lines.filter((line) => line.account === account).reduce((sum, line) => sum + line.amount, 0n)
      expect(of(disputeHoldAccount(merchant))).toBe(0n)
      expect(of(walletAccount(merchant))).toBe(end === "dispute_won" ? fee : each + fee)
      expect(of(GATEWAY_CLEARING)).toBe(end === "dispute_won" ? -fee : -(each + fee))
      expect(sumOfLines(lines)).toBe(0n)
    }), { numRuns: 500 })
  })

  it("lets only a dispute's debit take a wallet below zero", () => {
    const posting = (kind: LedgerPosting["kind"]): LedgerPosting =>
      kind === "payment_credit" || kind === "dispute_debit"
        ? { walletId: WalletId(1), kind, delta: Amount(-5n), fee: Amount(0n), reference: "x" }
        : { walletId: WalletId(1), kind, delta: Amount(-5n), reference: "x" }
    const kinds = LedgerEntryKind.literals
    expect(kinds.filter((kind) => mayOverdraw(posting(kind)))).toEqual(["dispute_debit"])
  })

  it("tells a wallet's account from the others by its stable name", () => {
    expect(isWalletAccount(walletAccount(MerchantId(12)))).toBe(true)
    expect([PLATFORM_FEES, GATEWAY_CLEARING, PLATFORM_ADJUSTMENTS, OPENING_BALANCES, PLATFORM_PAYOUTS_PAID, "merchant:12:reserve-hold", "merchant:12:payouts-in-transit", disputeHoldAccount(MerchantId(12))].some(isWalletAccount)).toBe(false)
  })
})

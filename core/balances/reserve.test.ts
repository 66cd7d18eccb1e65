import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Amount, ATOMS_PER_UNIT, atomsPerMinorUnit } from "../money/amount.js"
import { movementLines } from "../ledger/movements.js"
import { sumOfLines } from "../ledger/journal.js"
import { reserveHoldAccount, walletAccount } from "../ledger/account.js"
import { MerchantId } from "../shared/ids.js"
import { splitBalance } from "./availability.js"
import { reserveShare } from "./reserve.js"

const exponent = fc.integer({ min: 0, max: 8 })
/** A percent with at most two decimals, 0 to 100, at the money scale. */
const percent = fc.integer({ min: 0, max: 10_000 }).map((hundredths) => Amount(BigInt(hundredths) * (ATOMS_PER_UNIT / 100n)))
const netIn = (exp: number) => fc.bigInt({ min: 0n, max: 10n ** 12n }).map((units) => Amount(units * atomsPerMinorUnit(exp)))

describe("a rolling reserve's share of a payment's net", () => {
  it("(property) is whole minor units, within the net, and the nearest to net × percent (a tie held)", () => {
    fc.assert(fc.property(exponent.chain((exp) => fc.tuple(fc.constant(exp), netIn(exp), percent)), ([exp, net, pct]) => {
      const held = reserveShare(net, pct, exp)
      const unit = atomsPerMinorUnit(exp)
      expect(held % unit).toBe(0n)
      expect(held >= 0n && held <= net).toBe(true)
      // |held − exact| ≤ half a unit, with exact = net × pct / (100 × 10^8): compared over the common denominator.
      const denominator = 100n * ATOMS_PER_UNIT
      const error = held * denominator - net * pct
      expect(2n * (error < 0n ? -error : error) <= unit * denominator).toBe(true)
      // A tie goes to the hold: exactly half a unit below is never left.
      expect(2n * error === -unit * denominator).toBe(false)
    }), { numRuns: 3_000 })
  })

  it("rounds half up in the currency's unit: 2.5 % of 0.30 USD is 0.0075, held as 0.01; of 0.20 USD (0.005) as 0.01; of 0.10 (0.0025) as 0.00", () => {
    const cents = (n: bigint) => Amount(n * atomsPerMinorUnit(2))
    const pct = Amount(250_000_000n)
    expect(reserveShare(cents(30n), pct, 2)).toBe(cents(1n))
    expect(reserveShare(cents(20n), pct, 2)).toBe(cents(1n))
    expect(reserveShare(cents(10n), pct, 2)).toBe(cents(0n))
    expect(reserveShare(Amount(1_000n * ATOMS_PER_UNIT), Amount(100n * ATOMS_PER_UNIT), 0)).toBe(Amount(1_000n * ATOMS_PER_UNIT))
  })

  it("(property) held then released leaves the wallet and the reserve hold where they were, to the minor unit, and each entry balances", () => {
    fc.assert(fc.property(exponent.chain((exp) => fc.tuple(fc.constant(exp), fc.array(fc.tuple(netIn(exp), percent), { maxLength: 20 }))), ([exp, payments]) => {
      const merchantId = MerchantId(3)
      const totals = new Map<string, bigint>()
      for (const [net, pct] of payments) {
        const held = reserveShare(net, pct, exp)
        for (const kind of ["reserve_held", "reserve_released"] as const) {
          const lines = movementLines({ kind, merchantId, amount: held })
          expect(sumOfLines(lines)).toBe(0n)
          for (const line of lines) totals.set(line.account, (totals.get(line.account) ?? 0n) + line.amount)
        }
      }
      expect(totals.get(walletAccount(merchantId)) ?? 0n).toBe(0n)
      expect(totals.get(reserveHoldAccount(merchantId)) ?? 0n).toBe(0n)
    }), { numRuns: 500 })
  })
})

describe("a balance split into available and pending", () => {
  it("(property) pending is within the recent net and the balance; available = balance − pending, never negative", () => {
    const amount = fc.bigInt({ min: -(10n ** 15n), max: 10n ** 15n }).map(Amount)
    fc.assert(fc.property(amount, amount, (balance, recent) => {
      const { available, pending } = splitBalance(balance, recent)
      expect(available >= 0n && pending >= 0n).toBe(true)
      expect(pending <= (recent > 0n ? recent : 0n)).toBe(true)
      if (balance >= 0n) expect(available + pending).toBe(balance)
      else expect([available, pending]).toEqual([0n, 0n])
    }), { numRuns: 2_000 })
  })

  it("a refund that took the recent money leaves nothing available rather than less than nothing", () => {
    expect(splitBalance(Amount(30n), Amount(100n))).toEqual({ available: 0n, pending: 30n })
    expect(splitBalance(Amount(130n), Amount(100n))).toEqual({ available: 30n, pending: 100n })
  })
})

import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { PayoutDestination } from "../../core/payouts/payout-destination.js"
import { PayoutDestinationRepository } from "../../core/payouts/payout-destination-repository.js"
import type { Environment } from "../../core/shared/environment.js"
import type { MerchantId } from "../../core/shared/ids.js"
import { fromSeconds, plusSeconds } from "../../core/shared/instant.js"
import { makeMerchant, unique } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const AT = fromSeconds(1_900_000_000)

const destination = (merchantId: MerchantId, environment: Environment, second: number, overrides: Partial<PayoutDestination> = {}): PayoutDestination => ({
  id: unique("pd"),
  merchantId,
  environment,
  type: "bank_account",
  accountHolder: "Example Shop GmbH",
  ibanMasked: "DE89 **** **** **** **30 00",
  sealedIban: unique("v1.sealed"),
  bic: null,
  accountId: null,
  currency: "EUR",
  createdAt: plusSeconds(AT, second),
  ...overrides
})

export const payoutDestinationCases = (it: StorageIt) => {
  it.effect("payout destinations: kept per merchant and environment, listed oldest first, round trip exact", () =>
    Effect.gen(function*() {
      const repo = yield* PayoutDestinationRepository
      const merchant = yield* makeMerchant()
      const other = yield* makeMerchant()
      const second = destination(merchant.id, "sandbox", 2, { bic: "COBADEFFXXX", currency: "USD" })
      const first = destination(merchant.id, "sandbox", 1)
      expect(yield* repo.create(second, 20)).toBe(true)
      expect(yield* repo.create(first, 20)).toBe(true)
      expect(yield* repo.create(destination(merchant.id, "production", 3), 20)).toBe(true)
      expect(yield* repo.create(destination(other.id, "sandbox", 4), 20)).toBe(true)
      expect(yield* repo.list(merchant.id, "sandbox")).toEqual([first, second])
      expect((yield* repo.list(merchant.id, "production")).map((row) => row.environment)).toEqual(["production"])
    }))

  it.effect("payout destinations: removed only by their merchant in their environment, once, then no longer listed", () =>
    Effect.gen(function*() {
      const repo = yield* PayoutDestinationRepository
      const merchant = yield* makeMerchant()
      const other = yield* makeMerchant()
      const kept = destination(merchant.id, "sandbox", 1)
      yield* repo.create(kept, 20)
      expect(yield* repo.remove(other.id, "sandbox", kept.id, AT)).toBe(false)
      expect(yield* repo.remove(merchant.id, "production", kept.id, AT)).toBe(false)
      expect(yield* repo.remove(merchant.id, "sandbox", "pd_none", AT)).toBe(false)
      expect(yield* repo.list(merchant.id, "sandbox")).toEqual([kept])
      expect(yield* repo.remove(merchant.id, "sandbox", kept.id, AT)).toBe(true)
      expect(yield* repo.remove(merchant.id, "sandbox", kept.id, AT)).toBe(false)
      expect(yield* repo.list(merchant.id, "sandbox")).toEqual([])
    }))

  it.effect("payout destinations: the limit counts the merchant's kept ones in the environment, even when added at once", () =>
    Effect.gen(function*() {
      const repo = yield* PayoutDestinationRepository
      const merchant = yield* makeMerchant()
      const added = yield* Effect.all(Array.from({ length: 6 }, (_, i) => repo.create(destination(merchant.id, "sandbox", i), 3)), { concurrency: "unbounded" })
      expect(added.filter((created) => created)).toHaveLength(3)
      expect(yield* repo.list(merchant.id, "sandbox")).toHaveLength(3)
      // Another environment has its own count, and a deleted destination frees its place.
      expect(yield* repo.create(destination(merchant.id, "production", 10), 3)).toBe(true)
      const [oldest] = yield* repo.list(merchant.id, "sandbox")
      yield* repo.remove(merchant.id, "sandbox", oldest!.id, AT)
      expect(yield* repo.create(destination(merchant.id, "sandbox", 11), 3)).toBe(true)
      expect(yield* repo.create(destination(merchant.id, "sandbox", 12), 3)).toBe(false)
    }))

  it.effect("payout destinations: a Stripe account keeps its account id; any destination is found for a payout by id, a deleted one too", () =>
    Effect.gen(function*() {
      const repo = yield* PayoutDestinationRepository
      const merchant = yield* makeMerchant()
      const stripe = destination(merchant.id, "sandbox", 1, {
        type: "stripe_account", accountHolder: "", ibanMasked: "", sealedIban: "", accountId: "acct_1Nv0FGQ9RKHgCVdK"
      })
      const bank = destination(merchant.id, "sandbox", 2)
      yield* repo.create(stripe, 20)
      yield* repo.create(bank, 20)
      expect(yield* repo.list(merchant.id, "sandbox")).toEqual([stripe, bank])
      expect(yield* repo.findForPayout(stripe.id)).toEqual(Option.some(stripe))
      yield* repo.remove(merchant.id, "sandbox", bank.id, AT)
      expect(Option.isNone(yield* repo.find(merchant.id, "sandbox", bank.id))).toBe(true)
      expect(yield* repo.findForPayout(bank.id)).toEqual(Option.some(bank))
      expect(Option.isNone(yield* repo.findForPayout("pd_none"))).toBe(true)
    }))
}

import { expect } from "@effect/vitest"
import { Effect, Option } from "effect"
import { MerchantRepository } from "../../core/merchants/merchant-repository.js"
import { Amount, MAX_AMOUNT } from "../../core/money/amount.js"
import { MerchantId } from "../../core/shared/ids.js"
import { StoreHealth } from "../../core/shared/store-health.js"
import { makeMerchant } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

export const merchantCases = (it: StorageIt) => {
  it.effect("merchant: round trip, update, and exact money at the maximum", () =>
    Effect.gen(function*() {
      const repo = yield* MerchantRepository
      const created = yield* repo.create({ name: "Acme", status: "pending", feePercent: Amount(123_456_789n), feeFixed: MAX_AMOUNT })
      expect(yield* repo.findById(created.id)).toEqual(Option.some(created))
      expect(created.feeFixed).toBe(10n ** 18n - 1n)
      const updated = yield* repo.update(created.id, { status: "approved", name: "Acme Ltd" })
      expect(Option.map(updated, (m) => [m.name, m.status, m.feePercent, m.feeFixed])).toEqual(
        Option.some(["Acme Ltd", "approved", 123_456_789n, MAX_AMOUNT])
      )
      expect(yield* repo.update(MerchantId(987_654_321), { name: "nobody" })).toEqual(Option.none())
      expect(yield* repo.findById(MerchantId(987_654_321))).toEqual(Option.none())
    }))

  it.effect("health: the store answers a ping", () => Effect.flatMap(StoreHealth, (health) => health.ping))

  it.effect("merchant: ids are distinct integers, and counted", () =>
    Effect.gen(function*() {
      const before = yield* (yield* MerchantRepository).count
      const a = yield* makeMerchant()
      const b = yield* makeMerchant()
      expect(Number.isSafeInteger(a.id) && Number.isSafeInteger(b.id)).toBe(true)
      expect(a.id).not.toBe(b.id)
      // Other cases add merchants concurrently, so only a lower bound holds.
      expect(yield* (yield* MerchantRepository).count).toBeGreaterThanOrEqual(before + 2)
    }))
}

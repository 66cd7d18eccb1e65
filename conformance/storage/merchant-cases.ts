import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
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

  it.effect("merchant: several found by their ids at once, unknown ids left out", () =>
    Effect.gen(function*() {
      const repo = yield* MerchantRepository
      const [a, b] = [yield* makeMerchant(), yield* makeMerchant()]
      const found = yield* repo.findByIds([b.id, MerchantId(987_654_321), a.id, a.id])
      expect([...found].sort((x, y) => x.id - y.id)).toEqual([a, b].sort((x, y) => x.id - y.id))
      expect(yield* repo.findByIds([])).toEqual([])
    }))

  it.effect("merchant: IPN compatibility settings default to the contract's spelling and change one at a time", () =>
    Effect.gen(function*() {
      const repo = yield* MerchantRepository
      const plain = yield* makeMerchant()
      expect([plain.ipnSignatureFormat, plain.ipnJsonStyle]).toEqual(["hex", "compact"])
      const asked = yield* repo.create({ name: "Legacy", status: "approved", feePercent: Amount(0n), feeFixed: Amount(0n), ipnJsonStyle: "php" })
      expect(yield* repo.findById(asked.id)).toEqual(Option.some(asked))
      expect([asked.ipnSignatureFormat, asked.ipnJsonStyle]).toEqual(["hex", "php"])
      const prefixed = yield* repo.update(asked.id, { ipnSignatureFormat: "sha256=hex" })
      expect(Option.map(prefixed, (m) => [m.ipnSignatureFormat, m.ipnJsonStyle, m.name])).toEqual(Option.some(["sha256=hex", "php", "Legacy"]))
      const back = yield* repo.update(asked.id, { ipnJsonStyle: "compact", name: "Legacy Ltd" })
      expect(Option.map(back, (m) => [m.ipnSignatureFormat, m.ipnJsonStyle])).toEqual(Option.some(["sha256=hex", "compact"]))
      expect((yield* repo.list({ limit: 100, offset: 0 })).merchants.find((m) => m.id === asked.id)).toEqual(Option.getOrThrow(back))
    }))

  it.effect("health: the store answers a ping", () => Effect.flatMap(StoreHealth, (health) => health.ping))

  // A full disk is shown by the SQLite file's own test on a small filesystem (hosts/standalone/disk-full.test.ts).
  it.effect("health: a store with room to write does not count as full", () =>
    Effect.map(Effect.flatMap(StoreHealth, (health) => health.diskFull), (full) => expect(full).toBe(false)))

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

  it.effect("merchant: lists newest first, by status, a page at a time, with the total", () =>
    Effect.gen(function*() {
      const repo = yield* MerchantRepository
      const mine = [yield* makeMerchant({ status: "disabled" }), yield* makeMerchant({ status: "disabled" }), yield* makeMerchant({ status: "disabled" })]
      const other = yield* makeMerchant({ status: "approved" })
      const all = yield* repo.list({ status: "disabled", limit: 100, offset: 0 })
      expect(all.merchants.every((merchant) => merchant.status === "disabled")).toBe(true)
      expect(all.merchants.map((merchant) => merchant.id)).not.toContain(other.id)
      expect(all.total).toBeGreaterThanOrEqual(3)
      // Newest first: creation time descending, then id descending among equal times.
      const order = all.merchants.map((merchant) => [merchant.createdAt, merchant.id] as const)
      for (let i = 1; i < order.length; i++) {
        const [[at, id], [previousAt, previousId]] = [order[i]!, order[i - 1]!]
        expect(at < previousAt || (at === previousAt && id < previousId)).toBe(true)
      }
      const ids = all.merchants.map((merchant) => merchant.id).filter((id) => mine.some((m) => m.id === id))
      expect(ids).toEqual(mine.map((merchant) => merchant.id).reverse())
      expect(all.merchants.find((merchant) => merchant.id === mine[0]!.id)).toEqual(mine[0])
      // Pages of two cover the same rows in the same order, each with the full total.
      const first = yield* repo.list({ status: "disabled", limit: 2, offset: 0 })
      const second = yield* repo.list({ status: "disabled", limit: 2, offset: 2 })
      expect([...first.merchants, ...second.merchants]).toEqual(all.merchants.slice(0, 4))
      expect([first.total, second.total]).toEqual([all.total, all.total])
      const beyond = yield* repo.list({ status: "disabled", limit: 2, offset: all.total })
      expect(beyond).toEqual({ merchants: [], total: all.total })
      // Unfiltered, every merchant counts.
      const everyone = yield* repo.list({ limit: 1, offset: 0 })
      expect(everyone.total).toBe(yield* repo.count)
      expect(everyone.merchants).toEqual([other])
    }))
}

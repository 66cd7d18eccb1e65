import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Instant, now } from "../../core/shared/instant.js"
import type { NewSubscription } from "../../core/subscriptions/subscription.js"
import { SubscriptionRepository } from "../../core/subscriptions/subscription-repository.js"
import { TestClockRepository } from "../../core/subscriptions/test-clock.js"
import { makeMerchant, newSubscription, unique, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const onClock = (merchantId: NewSubscription["merchantId"], testClockId: string, wakeAt: Instant | null): NewSubscription =>
  newSubscription(merchantId, { status: "active", nextBillingAt: wakeAt, testClockId, wakeAt })

/** The test clock port (issue 36): scoped reads, the status compare-and-set, counts, and deleting a clock's objects. */
export const testClockCases = (it: StorageIt) => {
  it.effect("test clock: round trip, scoped find, list, compare-and-set on the status, count", () =>
    Effect.gen(function*() {
      const clocks = yield* TestClockRepository
      const merchant = yield* makeMerchant()
      const stranger = yield* makeMerchant()
      const id = unique("clock")
      const inserted = yield* clocks.insert({ id, merchantId: merchant.id, environment: "sandbox", name: "walkthrough", frozenTime: Instant(1_830_000_000_000_000n), status: "ready" })
      expect(inserted).toMatchObject({ id, name: "walkthrough", frozenTime: 1_830_000_000_000_000n, status: "ready" })
      expect(yield* clocks.findScoped(merchant.id, "sandbox", id)).toEqual(Option.some(inserted))
      expect(yield* clocks.findScoped(stranger.id, "sandbox", id)).toEqual(Option.none())
      expect(yield* clocks.findScoped(merchant.id, "production", id)).toEqual(Option.none())
      expect((yield* clocks.list(merchant.id, "sandbox", 10)).map((clock) => clock.id)).toEqual([id])
      expect(yield* clocks.count(merchant.id, "sandbox")).toBe(1)
      expect(yield* clocks.count(stranger.id, "sandbox")).toBe(0)
      const at = yield* now
      const claimed = yield* clocks.update(id, ["ready"], { status: "advancing" }, at)
      expect(Option.map(claimed, (clock) => clock.status)).toEqual(Option.some("advancing"))
      // A second claim finds it moved on.
      expect(yield* clocks.update(id, ["ready"], { status: "advancing" }, at)).toEqual(Option.none())
      const done = yield* clocks.update(id, ["advancing"], { status: "ready", frozenTime: Instant(1_830_000_100_000_000n) }, at)
      expect(Option.map(done, (clock) => [clock.status, clock.frozenTime])).toEqual(Option.some(["ready", 1_830_000_100_000_000n]))
    }))

  it.effect("test clock: its subscriptions, one wake queue per clock, and deleting its objects leaves others", () =>
    Effect.gen(function*() {
      const clocks = yield* TestClockRepository
      const repo = yield* SubscriptionRepository
      const merchant = yield* makeMerchant()
      const clock = yield* clocks.insert({ id: unique("clock"), merchantId: merchant.id, environment: "sandbox", name: null, frozenTime: Instant(0n), status: "ready" })
      const other = yield* clocks.insert({ id: unique("clock"), merchantId: merchant.id, environment: "sandbox", name: null, frozenTime: Instant(0n), status: "ready" })
      const first = yield* repo.insert(onClock(merchant.id, clock.id, Instant(5_000n)))
      const second = yield* repo.insert(onClock(merchant.id, clock.id, Instant(3_000n)))
      const elsewhere = yield* repo.insert(onClock(merchant.id, other.id, Instant(1_000n)))
      yield* repo.insertInvoice({
        id: unique("inv"), subscriptionId: first.id, sequence: 1, reference: unique("ref"), status: "paid", amount: units(25), currency: "USD",
        trxId: null, periodStart: null, periodEnd: null, checkoutExpiresAt: null, paidAt: null
      })
      expect([...(yield* clocks.subscriptionIds(clock.id))].sort()).toEqual([first.id, second.id].sort())
      expect(yield* repo.nextWake(clock.id)).toEqual(Option.some(3_000n))
      expect((yield* repo.listDue(Instant(4_000n), 10, clock.id)).map((s) => s.id)).toEqual([second.id])
      // Real time's queue never holds a clock's subscription.
      expect((yield* repo.listDue(Instant(10_000n), 1000, null)).some((s) => s.testClockId !== null)).toBe(false)
      yield* clocks.deleteObjects(clock.id)
      yield* clocks.delete(clock.id)
      expect(yield* repo.findById(first.id)).toEqual(Option.none())
      expect(yield* repo.latestInvoices(first.id, 5)).toEqual([])
      expect(yield* clocks.findById(clock.id)).toEqual(Option.none())
      expect(Option.isSome(yield* repo.findById(elsewhere.id))).toBe(true)
      expect(yield* clocks.subscriptionIds(other.id)).toEqual([elsewhere.id])
    }))
}

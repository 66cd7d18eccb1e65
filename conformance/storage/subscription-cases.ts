import { expect } from "@effect/vitest"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { Environment } from "../../core/shared/environment.js"
import { MAX_AMOUNT } from "../../core/money/amount.js"
import { Instant, now, plusSeconds } from "../../core/shared/instant.js"
import { Transactor } from "../../core/shared/transactor.js"
import { type NewInvoice, type NewSubscription, type Subscription } from "../../core/subscriptions/subscription.js"
import { SubscriptionRepository } from "../../core/subscriptions/subscription-repository.js"
import { makeMerchant, newSubscription, unique, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"


const newInvoice = (subscriptionId: string, sequence: number, overrides: Partial<NewInvoice> = {}): NewInvoice => ({
  id: unique("inv"),
  subscriptionId,
  sequence,
  reference: unique("ref"),
  status: "pending",
  amount: units(25),
  currency: "USD",
  trxId: null,
  periodStart: null,
  periodEnd: null,
  checkoutExpiresAt: null,
  paidAt: null,
  ...overrides
})

/** A merchant with one subscription, the starting point of most cases. */
const subscribed = (overrides: Partial<NewSubscription> = {}) =>
  Effect.gen(function*() {
    const merchant = yield* makeMerchant()
    const repo = yield* SubscriptionRepository
    return yield* repo.insert(newSubscription(merchant.id, overrides))
  })

class Boom extends Data.TaggedError("Boom") {}

export const subscriptionCases = (it: StorageIt) => {
  it.effect("subscription: round trip of every field, JSON metadata, nulls and the maximum amount", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const merchant = yield* makeMerchant()
      const at = yield* now
      const full = newSubscription(merchant.id, {
        environment: "production",
        status: "active",
        billingCycle: "half_yearly",
        amount: MAX_AMOUNT,
        currency: "BTC",
        customerName: "Zoë Ünal",
        description: "Gold plan — 12 seats",
        allowPaymentMethods: ["card", "wallet"],
        metadata: { plan: "gold", seats: 12, trial: false, note: "naïve ✓", nested: { tags: ["a", "b"], none: null } },
        startsAt: Instant(at - 1n),
        currentPeriodStart: Instant(at),
        currentPeriodEnd: plusSeconds(at, 86_400),
        nextBillingAt: plusSeconds(at, 86_400),
        cancelAtPeriodEnd: true,
        cancelledAt: Instant(at + 7n),
        trialEnd: Instant(at + 11n),
        trialNoticeAt: Instant(at + 3n),
        billingAnchor: Instant(at + 11n),
        pausedAt: Instant(at + 1n),
        resumesAt: plusSeconds(at, 3_600),
        pendingAmount: MAX_AMOUNT,
        pendingCycle: "weekly",
        credit: units(-3),
        locale: "fr"
      })
      const inserted = yield* repo.insert(full)
      const after = yield* now
      expect(inserted).toEqual({ ...full, createdAt: inserted.createdAt, updatedAt: inserted.createdAt })
      expect(inserted.createdAt >= at && inserted.createdAt <= after).toBe(true)
      expect(inserted.amount).toBe(10n ** 18n - 1n)
      expect(yield* repo.findById(full.id)).toEqual(Option.some(inserted))

      // Every nullable column null, every flag false, empty JSON list and object.
      const sparse = newSubscription(merchant.id)
      const stored = yield* repo.insert(sparse)
      expect(yield* repo.findById(sparse.id)).toEqual(Option.some({ ...sparse, createdAt: stored.createdAt, updatedAt: stored.updatedAt }))
      expect(yield* repo.findById(unique("sub_missing"))).toEqual(Option.none())
    }))

  it.effect("subscription: a transition writes the plan-change fields it names and keeps the others", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const subscription = yield* subscribed({ status: "active", pendingCycle: "yearly", credit: units(2) })
      const at = yield* now
      const moved = Option.getOrThrow(yield* repo.transition(subscription.id, ["active"], {
        amount: units(40),
        billingCycle: "weekly",
        pausedAt: at,
        resumesAt: null,
        pendingAmount: units(50),
        credit: units(-1)
      }, at))
      expect(moved).toMatchObject({ amount: units(40), billingCycle: "weekly", pausedAt: at, resumesAt: null, pendingAmount: units(50), pendingCycle: "yearly", credit: units(-1), trialEnd: null })
      expect(yield* repo.findById(subscription.id)).toEqual(Option.some(moved))
    }))

  it.effect("subscription: invoice round trip, lookups and compare-and-set update", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const subscription = yield* subscribed()
      const at = yield* now
      const invoice = newInvoice(subscription.id, 1, {
        amount: MAX_AMOUNT,
        currency: "EUR",
        periodStart: at,
        periodEnd: plusSeconds(at, 3_600),
        checkoutExpiresAt: plusSeconds(at, 900)
      })
      const inserted = yield* repo.insertInvoice(invoice)
      // The store numbers the invoice itself (invoice-number-cases.ts holds the series to account).
      expect(inserted).toEqual({ ...invoice, number: inserted.number, createdAt: inserted.createdAt, updatedAt: inserted.createdAt })
      expect(inserted.number).toMatch(/^INV-\d{4}-\d{6}$/)
      expect(yield* repo.findInvoiceById(invoice.id)).toEqual(Option.some(inserted))
      expect(yield* repo.findInvoiceByReference(invoice.reference)).toEqual(Option.some(inserted))
      expect(yield* repo.findInvoiceById(unique("inv_missing"))).toEqual(Option.none())
      expect(yield* repo.findInvoiceByReference(unique("ref_missing"))).toEqual(Option.none())

      const paidAt = plusSeconds(at, 60)
      const paid = yield* repo.updateInvoice(invoice.id, ["pending"], { status: "paid", trxId: "trx_1", paidAt }, paidAt)
      expect(paid).toEqual(Option.some({ ...inserted, status: "paid", trxId: "trx_1", paidAt, updatedAt: paidAt }))
      // Already paid: an expiry racing the payment finds nothing to change.
      expect(yield* repo.updateInvoice(invoice.id, ["pending"], { status: "expired" }, paidAt)).toEqual(Option.none())
      expect(yield* repo.updateInvoice(invoice.id, [], { status: "void" }, paidAt)).toEqual(Option.none())
      expect(yield* repo.findInvoiceById(invoice.id)).toEqual(paid)
    }))

  it.effect("subscription: external reference is unique per merchant and environment", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const first = yield* subscribed()
      const reference = first.externalReference
      const taken = yield* Effect.flip(repo.insert(newSubscription(first.merchantId, { externalReference: reference })))
      expect(taken._tag).toBe("ExternalReferenceTaken")
      expect(taken).toMatchObject({ externalReference: reference })

      const otherEnvironment = yield* repo.insert(
        newSubscription(first.merchantId, { externalReference: reference, environment: "production" })
      )
      const otherMerchant = yield* makeMerchant()
      const elsewhere = yield* repo.insert(newSubscription(otherMerchant.id, { externalReference: reference }))
      expect(new Set([first.id, otherEnvironment.id, elsewhere.id]).size).toBe(3)
    }))

  it.effect("subscription: scoped find sees only its own merchant and environment", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const subscription = yield* subscribed()
      const stranger = yield* makeMerchant()
      expect(yield* repo.findScoped(subscription.merchantId, "sandbox", subscription.id)).toEqual(Option.some(subscription))
      expect(yield* repo.findScoped(subscription.merchantId, "production", subscription.id)).toEqual(Option.none())
      expect(yield* repo.findScoped(stranger.id, "sandbox", subscription.id)).toEqual(Option.none())
    }))

  it.effect("subscription: list pages newest first with the total", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const merchant = yield* makeMerchant()
      const environment: Environment = "production"
      const created: Array<Subscription> = []
      for (let i = 0; i < 5; i++) created.push(yield* repo.insert(newSubscription(merchant.id, { environment })))
      yield* repo.insert(newSubscription(merchant.id, { environment: "sandbox" }))
      const newestFirst = [...created].sort((a, b) =>
        a.createdAt !== b.createdAt ? (a.createdAt > b.createdAt ? -1 : 1) : a.id > b.id ? -1 : 1
      )

      const page1 = yield* repo.list(merchant.id, environment, { page: 1, perPage: 2 })
      const page2 = yield* repo.list(merchant.id, environment, { page: 2, perPage: 2 })
      const page3 = yield* repo.list(merchant.id, environment, { page: 3, perPage: 2 })
      const page4 = yield* repo.list(merchant.id, environment, { page: 4, perPage: 2 })
      expect([page1.total, page2.total, page3.total, page4.total]).toEqual([5, 5, 5, 5])
      expect([...page1.items, ...page2.items, ...page3.items]).toEqual(newestFirst)
      expect(page3.items.length).toBe(1)
      expect(page4.items).toEqual([])

      const sandbox = yield* repo.list(merchant.id, "sandbox", { page: 1, perPage: 10 })
      expect(sandbox.total).toBe(1)
      const stranger = yield* makeMerchant()
      expect(yield* repo.list(stranger.id, environment, { page: 1, perPage: 10 })).toEqual({ items: [], total: 0 })
    }))

  it.effect("subscription: transition is a compare-and-set on the status", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const subscription = yield* subscribed()
      const at = yield* now
      const periodEnd = plusSeconds(at, 2_592_000)

      // From the wrong status: nothing matches and nothing changes.
      expect(yield* repo.transition(subscription.id, ["active", "past_due"], { status: "cancelled", cancelledAt: at }, at))
        .toEqual(Option.none())
      expect(yield* repo.findById(subscription.id)).toEqual(Option.some(subscription))

      const activated = yield* repo.transition(
        subscription.id,
        ["pending"],
        { status: "active", currentPeriodStart: at, currentPeriodEnd: periodEnd, nextBillingAt: periodEnd },
        at
      )
      const expected: Subscription = {
        ...subscription,
        status: "active",
        currentPeriodStart: at,
        currentPeriodEnd: periodEnd,
        nextBillingAt: periodEnd,
        updatedAt: at
      }
      expect(activated).toEqual(Option.some(expected))
      expect(yield* repo.findById(subscription.id)).toEqual(Option.some(expected))

      // A change may set a flag and clear a field; the guard may list several statuses.
      const flagged = yield* repo.transition(subscription.id, ["active", "past_due"], { cancelAtPeriodEnd: true, nextBillingAt: null }, at)
      expect(Option.map(flagged, (s) => [s.status, s.cancelAtPeriodEnd, s.nextBillingAt])).toEqual(Option.some(["active", true, null]))
      expect(yield* repo.transition(unique("sub_missing"), ["active"], { status: "cancelled" }, at)).toEqual(Option.none())
    }))

  it.effect("subscription: of 10 concurrent identical transitions exactly one applies", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const subscription = yield* subscribed()
      const at = yield* now
      const results = yield* Effect.all(
        Array.from({ length: 10 }, () => repo.transition(subscription.id, ["pending"], { status: "active" }, at)),
        { concurrency: "unbounded" }
      )
      expect(results.filter(Option.isSome).length).toBe(1)
      expect(Option.map(yield* repo.findById(subscription.id), (s) => s.status)).toEqual(Option.some("active"))
    }))

  it.effect("subscription: a taken invoice sequence is InvoiceSequenceTaken", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const subscription = yield* subscribed()
      const first = yield* repo.insertInvoice(newInvoice(subscription.id, 1))
      const taken = yield* Effect.flip(repo.insertInvoice(newInvoice(subscription.id, 1)))
      expect(taken._tag).toBe("InvoiceSequenceTaken")
      expect(taken).toMatchObject({ subscriptionId: subscription.id, sequence: 1 })
      expect(yield* repo.latestInvoices(subscription.id, 10)).toEqual([first])
      // The same sequence on another subscription is its own.
      const other = yield* subscribed()
      yield* repo.insertInvoice(newInvoice(other.id, 1))
    }))

  it.effect("subscription: of 10 concurrent inserts of one invoice sequence exactly one succeeds", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const subscription = yield* subscribed()
      const results = yield* Effect.all(
        Array.from({ length: 10 }, () => Effect.either(repo.insertInvoice(newInvoice(subscription.id, 1)))),
        { concurrency: "unbounded" }
      )
      const winners = results.filter(Either.isRight).map((r) => r.right)
      const losers = results.filter(Either.isLeft).map((r) => r.left._tag)
      expect(winners.length).toBe(1)
      expect(losers).toEqual(Array.from({ length: 9 }, () => "InvoiceSequenceTaken"))
      expect(yield* repo.latestInvoices(subscription.id, 10)).toEqual(winners)
    }))

  it.effect("subscription: listDue returns not-cancelled subscriptions due by now, earliest first", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const merchant = yield* makeMerchant()
      const at = yield* now
      const add = (overrides: Partial<NewSubscription>) => repo.insert(newSubscription(merchant.id, overrides))
      const dueLater = yield* add({ status: "active", nextBillingAt: plusSeconds(at, -30) })
      const dueFirst = yield* add({ status: "past_due", nextBillingAt: plusSeconds(at, -60) })
      const dueNow = yield* add({ status: "pending", nextBillingAt: at })
      yield* add({ status: "cancelled", nextBillingAt: plusSeconds(at, -90) })
      yield* add({ status: "active", nextBillingAt: plusSeconds(at, 3_600) })
      yield* add({ status: "active", nextBillingAt: null })

      const due = yield* repo.listDue(at, 10_000, null)
      expect(due.filter((s) => s.merchantId === merchant.id)).toEqual([dueFirst, dueLater, dueNow])
      // Other cases share the store: every row returned must still obey the contract.
      for (const s of due) expect(s.status !== "cancelled" && s.wakeAt !== null && s.wakeAt <= at && s.testClockId === null).toBe(true)
      const times = due.map((s) => s.wakeAt!)
      expect(times).toEqual([...times].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)))
      expect(yield* repo.listDue(at, 1, null)).toEqual(due.slice(0, 1))
      expect(yield* repo.listDue(at, 0, null)).toEqual([])
    }))

  it.effect("subscription: latestInvoices is highest sequence first, limited", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const subscription = yield* subscribed()
      for (const sequence of [3, 1, 5, 2, 4]) yield* repo.insertInvoice(newInvoice(subscription.id, sequence))
      const sequences = (limit: number) =>
        Effect.map(repo.latestInvoices(subscription.id, limit), (items) => items.map((i) => i.sequence))
      expect(yield* sequences(3)).toEqual([5, 4, 3])
      expect(yield* sequences(10)).toEqual([5, 4, 3, 2, 1])
      expect(yield* repo.latestInvoices(unique("sub_missing"), 10)).toEqual([])
    }))

  it.effect("subscription: a failure inside a transaction leaves nothing behind", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const transactor = yield* Transactor
      const merchant = yield* makeMerchant()
      const doomed = newSubscription(merchant.id)
      const error = yield* Effect.flip(
        transactor.withTransaction(
          Effect.gen(function*() {
            yield* repo.insert(doomed)
            yield* repo.insertInvoice(newInvoice(doomed.id, 1))
            return yield* new Boom()
          })
        )
      )
      expect(error._tag).toBe("Boom")
      expect(yield* repo.findById(doomed.id)).toEqual(Option.none())
      expect(yield* repo.latestInvoices(doomed.id, 10)).toEqual([])
    }))

  it.effect("subscription: an expected conflict inside a transaction does not spoil it", () =>
    Effect.gen(function*() {
      // On PostgreSQL a raised unique violation would abort the whole transaction; the ports
      // report conflicts without raising one, so the caller can carry on and commit.
      const repo = yield* SubscriptionRepository
      const transactor = yield* Transactor
      const existing = yield* subscribed()
      const fresh = newSubscription(existing.merchantId)
      const outcome = yield* transactor.withTransaction(
        Effect.gen(function*() {
          const taken = yield* Effect.either(
            repo.insert(newSubscription(existing.merchantId, { externalReference: existing.externalReference }))
          )
          yield* repo.insertInvoice(newInvoice(existing.id, 1))
          const sequence = yield* Effect.either(repo.insertInvoice(newInvoice(existing.id, 1)))
          yield* repo.insert(fresh)
          return [Either.isLeft(taken), Either.isLeft(sequence)]
        })
      )
      expect(outcome).toEqual([true, true])
      expect(Option.isSome(yield* repo.findById(fresh.id))).toBe(true)
      expect((yield* repo.latestInvoices(existing.id, 10)).length).toBe(1)
    }))

  it.effect("subscription: latestInvoiceOf answers the newest invoice of each subscription named", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const first = yield* subscribed()
      const second = yield* repo.insert(newSubscription(first.merchantId))
      const bare = yield* repo.insert(newSubscription(first.merchantId))
      for (const sequence of [2, 3, 1]) yield* repo.insertInvoice(newInvoice(first.id, sequence))
      yield* repo.insertInvoice(newInvoice(second.id, 1))
      const latest = yield* repo.latestInvoiceOf([first.id, second.id, bare.id, unique("sub_missing")])
      expect(latest.map((invoice) => [invoice.subscriptionId, invoice.sequence]).sort()).toEqual([[first.id, 3], [second.id, 1]].sort())
      expect(yield* repo.latestInvoiceOf([])).toEqual([])
    }))

  it.effect("subscription: findByIdForUpdate makes concurrent read-modify-write transactions take turns", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const transactor = yield* Transactor
      const at = yield* now
      const subscription = yield* subscribed({ status: "active", nextBillingAt: at })
      // Each writer reads the value under the lock, waits, and writes it plus one second: without
      // the lock both would read the same value and one increment would be lost.
      const bump = transactor.withTransaction(Effect.gen(function*() {
        const locked = Option.getOrThrow(yield* repo.findByIdForUpdate(subscription.id))
        yield* Effect.sleep("40 millis")
        yield* repo.transition(subscription.id, ["active"], { nextBillingAt: plusSeconds(locked.nextBillingAt!, 1) }, yield* now)
      }))
      yield* Effect.all([bump, bump, bump], { concurrency: "unbounded" })
      expect(Option.getOrThrow(yield* repo.findById(subscription.id)).nextBillingAt).toBe(plusSeconds(at, 3))
      expect(yield* repo.findByIdForUpdate(unique("sub_missing"))).toEqual(Option.none())
    }))
}

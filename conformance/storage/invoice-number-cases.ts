import { expect } from "@effect/vitest"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import type { Environment } from "../../core/shared/environment.js"
import { makeManualClock } from "../../core/shared/manual-clock.js"
import type { MerchantId } from "../../core/shared/ids.js"
import { Transactor } from "../../core/shared/transactor.js"
import { invoiceNumber } from "../../core/subscriptions/invoice-number.js"
import type { NewInvoice } from "../../core/subscriptions/subscription.js"
import { SubscriptionRepository } from "../../core/subscriptions/subscription-repository.js"
import { makeMerchant, newSubscription, unique, units } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

class Boom extends Data.TaggedError("Boom") {}

const subscriptionOf = (merchantId: MerchantId, environment: Environment = "sandbox") =>
  Effect.flatMap(SubscriptionRepository, (repo) => repo.insert(newSubscription(merchantId, { environment, status: "active" })))

const invoiceOf = (subscriptionId: string, sequence: number): NewInvoice => ({
  id: unique("inv"), subscriptionId, sequence, reference: unique("ref"), status: "pending", amount: units(25), currency: "USD",
  trxId: null, periodStart: null, periodEnd: null, checkoutExpiresAt: null, paidAt: null
})

// Cases run on a fixed business clock so the year in the number is known.
const clock = makeManualClock(Date.UTC(2031, 5, 15, 12))
const onClock = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.withClock(effect, clock.clock)
const numbers = (year: number, count: number) => Array.from({ length: count }, (_, i) => invoiceNumber(year, i + 1))

/**
 * Invoice numbers (core/subscriptions/invoice-number.ts): the store draws each from a counter in the
 * transaction inserting the invoice, so concurrent inserts share and skip nothing and a rolled-back
 * insert gives its number back.
 */
export const invoiceNumberCases = (it: StorageIt) => {
  it.effect("invoice numbers: 12 concurrent invoice transactions get 1..12 exactly", () =>
    onClock(Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const transactor = yield* Transactor
      const merchant = yield* makeMerchant()
      const subscriptions = yield* Effect.forEach(Array.from({ length: 12 }), () => subscriptionOf(merchant.id))
      const opened = yield* Effect.all(
        subscriptions.map((subscription) =>
          transactor.withTransaction(Effect.gen(function*() {
            const invoice = yield* repo.insertInvoice(invoiceOf(subscription.id, 1))
            // Hold the transaction open a while after the draw, so the others wait on the counter.
            yield* Effect.sleep("5 millis")
            return invoice
          }))),
        { concurrency: "unbounded" }
      )
      expect(opened.map((invoice) => invoice.number).sort()).toEqual(numbers(2031, 12))
      // The number is stored: read back, each invoice still has its own.
      for (const invoice of opened) expect((yield* repo.latestInvoices(invoice.subscriptionId, 1))[0]?.number).toBe(invoice.number)
    })))

  it.effect("invoice numbers: a transaction that fails after drawing gives its number back", () =>
    onClock(Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const transactor = yield* Transactor
      const merchant = yield* makeMerchant()
      const subscription = yield* subscriptionOf(merchant.id)
      const first = yield* repo.insertInvoice(invoiceOf(subscription.id, 1))
      const failed = yield* Effect.flip(transactor.withTransaction(Effect.gen(function*() {
        const drawn = yield* repo.insertInvoice(invoiceOf(subscription.id, 2))
        expect(drawn.number).toBe(invoiceNumber(2031, 2))
        return yield* new Boom()
      })))
      expect(failed._tag).toBe("Boom")
      const next = yield* repo.insertInvoice(invoiceOf(subscription.id, 2))
      expect([first.number, next.number]).toEqual(numbers(2031, 2))
    })))

  it.effect("invoice numbers: an insert that loses its sequence race burns no number, even when the transaction goes on", () =>
    onClock(Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const transactor = yield* Transactor
      const merchant = yield* makeMerchant()
      const subscription = yield* subscriptionOf(merchant.id)
      const other = yield* subscriptionOf(merchant.id)
      const committed = yield* transactor.withTransaction(Effect.gen(function*() {
        const first = yield* repo.insertInvoice(invoiceOf(subscription.id, 1))
        const lost = yield* Effect.either(repo.insertInvoice(invoiceOf(subscription.id, 1)))
        expect(Either.isLeft(lost) && lost.left._tag).toBe("InvoiceSequenceTaken")
        const second = yield* repo.insertInvoice(invoiceOf(other.id, 1))
        return [first.number, second.number]
      }))
      expect(committed).toEqual(numbers(2031, 2))
    })))

  it.effect("invoice numbers: each merchant, environment and year counts on its own", () =>
    Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const merchant = yield* makeMerchant()
      const another = yield* makeMerchant()
      const sandbox = yield* subscriptionOf(merchant.id, "sandbox")
      const production = yield* subscriptionOf(merchant.id, "production")
      const elsewhere = yield* subscriptionOf(another.id, "sandbox")
      const at = (millis: number, subscriptionId: string, sequence: number) =>
        Effect.map(Effect.withClock(repo.insertInvoice(invoiceOf(subscriptionId, sequence)), makeManualClock(millis).clock), (i) => i.number)
      const lastOf2031 = Date.UTC(2031, 11, 31, 23, 59, 59)
      const firstOf2032 = Date.UTC(2032, 0, 1, 0, 0, 0)
      expect([
        yield* at(lastOf2031, sandbox.id, 1),
        yield* at(lastOf2031, sandbox.id, 2),
        yield* at(lastOf2031, production.id, 1),
        yield* at(lastOf2031, elsewhere.id, 1),
        yield* at(firstOf2032, sandbox.id, 3),
        yield* at(firstOf2032, production.id, 2)
      ]).toEqual([
        "INV-2031-000001", "INV-2031-000002", "INV-2031-000001", "INV-2031-000001", "INV-2032-000001", "INV-2032-000001"
      ])
    }))
}

import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Fiber from "effect/Fiber"
import * as Option from "effect/Option"
import { describe, expect, it } from "vitest"
import { newPayment, makeMerchant } from "../../conformance/storage/fixtures.js"
import { PaymentRepository } from "../../core/payments/payment-repository.js"
import { now, plusSeconds } from "../../core/shared/instant.js"
import { Transactor } from "../../core/shared/transactor.js"
import { DirectReads } from "../sql/direct-reads.js"
import { layer } from "./sqlite-storage.js"

const fileStore = () => layer({ filename: join(mkdtempSync(join(tmpdir(), "mp-reader-")), "store.db") })

/**
 * A payment written inside a transaction that is held open while it is read from outside, then
 * from inside, and from outside again once committed.
 */
const readsAroundAnOpenTransaction = Effect.gen(function*() {
  const payments = yield* PaymentRepository
  const { withTransaction } = yield* Transactor
  const merchant = yield* makeMerchant()
  const payment = newPayment(merchant.id, { expiresAt: plusSeconds(yield* now, 600) })
  const written = yield* Deferred.make<void>()
  const release = yield* Deferred.make<void>()
  const transaction = yield* Effect.fork(withTransaction(Effect.gen(function*() {
    yield* payments.insert(payment, yield* now)
    const inside = yield* payments.findScoped(merchant.id, "sandbox", payment.trxId)
    yield* Deferred.succeed(written, undefined)
    yield* Deferred.await(release)
    return inside
  })))
  yield* Deferred.await(written)
  const outsideWhileOpen = yield* payments.findByTrxId(payment.trxId)
  yield* Deferred.succeed(release, undefined)
  const inside = yield* Fiber.join(transaction)
  const outsideAfter = yield* payments.findScoped(merchant.id, "sandbox", payment.trxId)
  return { inside, outsideWhileOpen, outsideAfter, trxId: payment.trxId }
})

describe("SQLite's direct reader", () => {
  it("serves reads outside a transaction from committed data only; a transaction reads its own writes", async () => {
    const result = await Effect.runPromise(readsAroundAnOpenTransaction.pipe(Effect.provide(fileStore())))
    // Answered at once while the transaction holds the writer, and without its uncommitted row.
    expect(result.outsideWhileOpen).toEqual(Option.none())
    expect(Option.map(result.inside, (p) => p.trxId)).toEqual(Option.some(result.trxId))
    expect(Option.map(result.outsideAfter, (p) => p.trxId)).toEqual(Option.some(result.trxId))
  })

  it("is opened for a file and not for an in-memory store, which reads through its one connection", async () => {
    const onFile = await Effect.runPromise(Effect.map(DirectReads, (reader) => reader !== undefined).pipe(Effect.provide(fileStore())))
    expect(onFile).toBe(true)
    const inMemory = layer({ filename: ":memory:" })
    expect(await Effect.runPromise(Effect.map(DirectReads, (reader) => reader !== undefined).pipe(Effect.provide(inMemory)))).toBe(false)
    const found = await Effect.runPromise(Effect.gen(function*() {
      const merchant = yield* makeMerchant()
      const payment = newPayment(merchant.id, { expiresAt: plusSeconds(yield* now, 600) })
      yield* (yield* PaymentRepository).insert(payment, yield* now)
      return yield* (yield* PaymentRepository).findByTrxId(payment.trxId)
    }).pipe(Effect.provide(inMemory)))
    expect(Option.isSome(found)).toBe(true)
  })

  it("is read-only: a write sent to it fails and changes nothing", async () => {
    const outcome = await Effect.runPromise(Effect.gen(function*() {
      const reader = yield* DirectReads
      if (reader === undefined || !("all" in reader)) return "no reader"
      try {
        reader.all("DELETE FROM merchants RETURNING id", [])
        return "wrote"
      } catch (error) {
        return String(error)
      }
    }).pipe(Effect.provide(fileStore())))
    expect(outcome).toMatch(/readonly/i)
  })
})

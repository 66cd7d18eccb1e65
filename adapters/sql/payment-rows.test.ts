import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { paymentFromRow, PaymentRow, toPayment } from "./payment-rows.js"

const bySchema = (row: unknown) => Either.map(Schema.decodeUnknownEither(PaymentRow)(row), toPayment)
const byHand = (row: Readonly<Record<string, unknown>>) => {
  try {
    return Either.right(paymentFromRow(row))
  } catch (error) {
    return Either.left(error)
  }
}

/** An integer as either driver hands it back: better-sqlite3 a bigint, node-pg a string or a number. */
const storedInteger = (value: fc.Arbitrary<bigint>) =>
  fc.oneof(value, value.map(String), value.filter((n) => n <= BigInt(Number.MAX_SAFE_INTEGER) && n >= BigInt(Number.MIN_SAFE_INTEGER)).map(Number))
const int64 = storedInteger(fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n }))
const id = storedInteger(fc.bigInt({ min: 1n, max: 2n ** 40n }))
const text = fc.string({ maxLength: 12 })
const orNull = <A>(value: fc.Arbitrary<A>) => fc.option(value, { nil: null })

const validRow = fc.record({
  trx_id: text, merchant_id: id, environment: fc.constantFrom("sandbox", "production"), ref_trx: text, amount: int64,
  currency: text, status: fc.constantFrom("pending", "success", "failed"),
  failure_reason: orNull(fc.constantFrom("declined", "cancelled", "expired")), fee: orNull(int64), net: orNull(int64),
  refunded_amount: int64, description: orNull(text), customer_name: orNull(text), customer_email: orNull(text), ipn_url: text,
  success_redirect: text, cancel_redirect: text, allow_payment_methods: fc.array(text, { maxLength: 3 }).map((list) => JSON.stringify(list)),
  gateway_ids: fc.array(fc.integer({ min: 1, max: 1_000_000 }), { maxLength: 3 }).map((list) => JSON.stringify(list)),
  gateway_id: orNull(id), invoice_id: orNull(text), expires_at: int64, completed_at: orNull(int64), created_at: int64, updated_at: int64
})

/** A value no column of the payments table holds as it should. */
const badValue = fc.constantFrom<unknown>(undefined, null, 1.5, "12x", "not json", "{}", "[1.5]", "[\"a\"", {}, true, 2n ** 64n, "unknown-status")

describe("the payments row mapper, by hand", () => {
  it("reads every valid row, in either driver's shape, exactly as PaymentRow and toPayment do", () => {
    fc.assert(fc.property(validRow, (row) => {
      expect(byHand(row)).toEqual(bySchema(row))
      expect(Either.isRight(byHand(row))).toBe(true)
    }), { numRuns: 500 })
  })

  it("refuses a row whenever PaymentRow refuses it, column by column", () => {
    const columns = Object.keys(PaymentRow.fields)
    fc.assert(fc.property(validRow, fc.constantFrom(...columns), badValue, (row, column, value) => {
      const spoiled = { ...row, [column]: value }
      expect(Either.isLeft(byHand(spoiled))).toBe(Either.isLeft(bySchema(spoiled)))
    }), { numRuns: 1000 })
  })
})

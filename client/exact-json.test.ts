import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { encodeRequestBody, parseResponseBody } from "./exact-json.js"

/** Decimal text as a merchant would hold it, with more digits than a double keeps. */
const decimalText = fc
  .tuple(fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.option(fc.stringMatching(/^\d{1,8}$/), { nil: undefined }))
  .map(([whole, fraction]) => (fraction === undefined ? String(whole) : `${whole}.${fraction}`))

describe("request bodies", () => {
  it("write money fields as JSON numbers with the caller's digits, exactly", () => {
    fc.assert(fc.property(decimalText, decimalText, (payment, refund) => {
      expect(encodeRequestBody({ payment_amount: payment, currency_code: "USD" })).toBe(`{"payment_amount":${payment},"currency_code":"USD"}`)
      expect(encodeRequestBody({ trx_id: "T", amount: refund })).toBe(`{"trx_id":"T","amount":${refund}}`)
    }))
    expect(encodeRequestBody({ payment_amount: "0.30000000000000004" })).toBe('{"payment_amount":0.30000000000000004}')
    expect(encodeRequestBody({ payment_amount: "100.10" })).toBe('{"payment_amount":100.10}')
  })

  it("refuse a money field that is a JS number or not decimal text, before anything is sent", () => {
    for (const value of [19.99, 100, "19,99", " 5", "1.", ".5", "abc", "", null, true]) {
      expect(() => encodeRequestBody({ payment_amount: value }), String(value)).toThrow(TypeError)
    }
  })

  it("omit fields left undefined and leave other values (metadata numbers included) as JSON writes them", () => {
    expect(encodeRequestBody({ trx_id: "T", amount: undefined, reason: undefined })).toBe('{"trx_id":"T"}')
    expect(encodeRequestBody({ metadata: { seats: 3, amount: 2 }, at_period_end: false })).toBe('{"metadata":{"seats":3,"amount":2},"at_period_end":false}')
  })
})

describe("response bodies", () => {
  it("read every money field, at any depth, as the exact text sent", () => {
    fc.assert(fc.property(decimalText, decimalText, (amount, fee) => {
      const parsed = parseResponseBody(`{"status":"success","amount":${amount},"fee":${fee},"net_amount":${amount},"info":{"amount":${fee}}}`)
      expect(parsed).toEqual({ status: "success", amount, fee, net_amount: amount, info: { amount: fee } })
    }))
    expect(parseResponseBody('{"refunded_amount":12345678901234567.89,"total_refunded":0,"remaining_refund":1e2}')).toEqual({
      refunded_amount: "12345678901234567.89",
      total_refunded: "0",
      remaining_refund: "1e2"
    })
  })

  it("keep ids and counts as numbers, and any number a double would round as its text", () => {
    expect(parseResponseBody('{"merchant_id":7,"meta":{"total":3},"timestamp":1835425800,"ids":[1,2],"big":9007199254740993,"ratio":0.1}')).toEqual({
      merchant_id: 7,
      meta: { total: 3 },
      timestamp: 1835425800,
      ids: [1, 2],
      big: "9007199254740993",
      ratio: "0.1"
    })
  })

  it("refuse text that is not JSON, or that repeats a key", () => {
    expect(() => parseResponseBody("<html>Bad gateway</html>")).toThrow(SyntaxError)
    expect(() => parseResponseBody('{"amount":1,"amount":2}')).toThrow()
  })
})

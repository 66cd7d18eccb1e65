import { describe, expect, it } from "vitest"
import { isEmailAddress, referenceProblem } from "./text-rules.js"

describe("referenceProblem", () => {
  it.each(["order-42", "Bestellung 42", "注文42", "a", "order 42 \u{1F4E6}"])("accepts %j", (text) => {
    expect(referenceProblem(text)).toBeUndefined()
  })

  it.each([" ", "   ", "\u00a0", "\u3000 "])("calls %j blank", (text) => {
    expect(referenceProblem(text)).toBe("blank")
  })

  it.each(["a\nb", "a\rb", "a\u0000", "a\u001b[31m", "a\u007f", "a\u0085", "a\u200e", "a\u200f", "a\u202a", "a\u202e", "a\u2066", "a\u2069", "a\u061c", "a\u2028", "\n"])(
    "calls %j unprintable",
    (text) => {
      expect(referenceProblem(text)).toBe("unprintable")
    }
  )
})

describe("isEmailAddress", () => {
  it.each(["a@b.co", "first.last+tag@shop.example", "o'brien@mail.shop.co.uk", "josé@bücher.example", `${"l".repeat(64)}@shop.example`])(
    "accepts %j",
    (text) => {
      expect(isEmailAddress(text)).toBe(true)
    }
  )

  it.each([
    "https://user:pass@evil.example/", "user@evil.example/x", "a@b@c.example", "user@localhost", "user@shop.123", "user@shop..example",
    "user@shop.example.", "user.@shop.example", "u..ser@shop.example", "user@-shop.example", "user@shop-.example", "\"q\"@shop.example",
    "user@[127.0.0.1]", "us er@shop.example", "user@shop.example\n", "", "@shop.example", "user@", `${"l".repeat(65)}@shop.example`,
    `user@${"d".repeat(64)}.example`
  ])("refuses %j", (text) => {
    expect(isEmailAddress(text)).toBe(false)
  })
})

import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { methodCodes, normalizeKeywords } from "./method-list.js"

describe("normalizeKeywords", () => {
  it("splits on commas, pipes and whitespace; trims, lower-cases, de-duplicates, drops empties, keeps order", () => {
    expect(normalizeKeywords(" Card, bKash|PAYPAL  card\tnagad\n,,|")).toEqual(["card", "bkash", "paypal", "nagad"])
    expect(normalizeKeywords(["Card", " bkash | CARD ", "", "  "])).toEqual(["card", "bkash"])
  })

  it("is empty for nothing, blanks and separators only", () => {
    for (const input of [undefined, "", "   ", ",|, |", [], ["", " , "]]) expect(normalizeKeywords(input)).toEqual([])
  })

  it("always yields unique, non-empty, lower-case keywords without separators", () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.array(fc.string())), (input) => {
      const keywords = normalizeKeywords(input)
      expect(new Set(keywords).size).toBe(keywords.length)
      for (const keyword of keywords) {
        expect(keyword).not.toBe("")
        expect(keyword).toBe(keyword.toLowerCase())
        expect(keyword).not.toMatch(/[\s,|]/)
      }
    }))
  })
})

describe("methodCodes", () => {
  it("splits on commas only, trims, keeps case, de-duplicates, drops empties, keeps order", () => {
    expect(methodCodes(" card_usd, Bank ,card_usd,, ")).toEqual(["card_usd", "Bank"])
    expect(methodCodes(["card_usd", "bank, wallet", " "])).toEqual(["card_usd", "bank", "wallet"])
    expect(methodCodes("card usd|bank")).toEqual(["card usd|bank"])
  })

  it("is empty for nothing and commas only", () => {
    for (const input of [undefined, "", " , ,", [], [","]]) expect(methodCodes(input)).toEqual([])
  })
})

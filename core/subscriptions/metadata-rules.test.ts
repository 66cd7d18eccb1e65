import { describe, expect, it } from "vitest"
import { holdsCardNumber, MAX_METADATA_BYTES, MAX_METADATA_ENTRIES, MAX_METADATA_KEY_LENGTH, metadataProblem } from "./metadata-rules.js"

const entries = (count: number): Record<string, unknown> =>
  Object.fromEntries(Array.from({ length: count }, (_, i) => [`key_${i}`, `value ${i}`]))

/** `{"a":"<text>"}` is the text plus 8 bytes of JSON, each character counted in UTF-8. */
const ofJsonBytes = (bytes: number, char = "x"): Record<string, unknown> => {
  const width = new TextEncoder().encode(char).length
  return { a: char.repeat((bytes - 8) / width) }
}

// Well-known test card numbers (Luhn-valid) of 13, 15, 16 and 19 digits.
const CARDS = ["4222222222222", "378282246310005", "4111111111111111", "5555555555554444", "6011000990139424", "4000000000000000006"]

describe("metadata entries and size", () => {
  it("accepts 50 top-level entries and refuses 51", () => {
    expect(MAX_METADATA_ENTRIES).toBe(50)
    expect(metadataProblem(entries(50))).toBeUndefined()
    expect(metadataProblem(entries(51))).toBe("must not have more than 50 top-level entries")
  })

  it("counts only top-level entries", () => {
    expect(metadataProblem({ ...entries(49), nested: entries(80) })).toBeUndefined()
  })

  it("accepts keys of 1 to 40 characters (code points, not UTF-16 units) and refuses longer or blank ones", () => {
    expect(MAX_METADATA_KEY_LENGTH).toBe(40)
    const problem = "keys must be 1 to 40 characters"
    expect(metadataProblem({ ["k".repeat(40)]: 1 })).toBeUndefined()
    expect(metadataProblem({ ["k".repeat(41)]: 1 })).toBe(problem)
    expect(metadataProblem({ ["\u{1F600}".repeat(40)]: 1 })).toBeUndefined()
    expect(metadataProblem({ ["\u{1F600}".repeat(41)]: 1 })).toBe(problem)
    expect(metadataProblem({ "": 1 })).toBe(problem)
    expect(metadataProblem({ "   ": 1 })).toBe(problem)
  })

  it("accepts up to 8 KiB of JSON, counted in UTF-8 bytes", () => {
    expect(MAX_METADATA_BYTES).toBe(8192)
    const problem = "must not be larger than 8192 bytes as JSON"
    expect(metadataProblem(ofJsonBytes(8192))).toBeUndefined()
    expect(metadataProblem(ofJsonBytes(8193))).toBe(problem)
    expect(metadataProblem(ofJsonBytes(8192, "é"))).toBeUndefined()
    // 4,093 characters, but 8,194 bytes.
    expect(metadataProblem(ofJsonBytes(8194, "é"))).toBe(problem)
    expect(metadataProblem({ nested: { deeper: ["x".repeat(8200)] } })).toBe(problem)
  })
})

describe("metadata secrets", () => {
  const secretKeys = [
    "password", "db_pass", "PASSWD", "client_secret", "access_token", "cvv", "CVC2", "card_number", "cardNo", "card-number",
    "pan", "PAN", "card_pan", "pan-number", "iban", "billing_IBAN", "api_key", "private-key", "passphrase"
  ]

  it.each(secretKeys)("refuses the secret-looking key %s", (key) => {
    expect(metadataProblem({ [key]: "x" })).toBe(`must not hold secrets: the key ${JSON.stringify(key)} names one`)
  })

  it("refuses secret-looking keys nested in objects and arrays", () => {
    expect(metadataProblem({ customer: { billing: { password: "x" } } })).toBe('must not hold secrets: the key "password" names one')
    expect(metadataProblem({ items: [{ sku: "A1" }, [{ api: { secret: "x" } }]] })).toBe('must not hold secrets: the key "secret" names one')
  })

  it("accepts keys that merely contain the letters of one", () => {
    expect(metadataProblem({ plan: "gold", company: "Acme", japan_office: true, pantry: 1, spanner: 2, order_id: "ORD-1", passenger_count: 2, passport_country: "NL", compass: "N" })).toBeUndefined()
  })
})

describe("metadata card numbers", () => {
  it.each(CARDS)("refuses the Luhn-valid card number %s, plain, spaced, dashed, as a number and as a key", (card) => {
    const problem = "must not hold card data: a value looks like a card number"
    const spaced = card.replace(/(\d{4})(?=\d)/g, "$1 ")
    expect(metadataProblem({ note: card })).toBe(problem)
    expect(metadataProblem({ note: spaced })).toBe(problem)
    expect(metadataProblem({ note: spaced.replaceAll(" ", "-") })).toBe(problem)
    expect(metadataProblem({ note: `paid with ${spaced} yesterday` })).toBe(problem)
    // Larger numbers never get here: the edge refuses JSON numbers a double cannot hold exactly.
    if (Number.isSafeInteger(Number(card))) expect(metadataProblem({ note: Number(card) })).toBe(problem)
    expect(metadataProblem({ [card]: "x" })).toBe(problem)
  })

  it("refuses card numbers nested in arrays and objects", () => {
    const problem = "must not hold card data: a value looks like a card number"
    expect(metadataProblem({ orders: [{ notes: ["first", ["second", "4111-1111-1111-1111"]] }] })).toBe(problem)
    expect(metadataProblem({ a: { b: { c: [1, 2, 5555555555554444] } } })).toBe(problem)
  })

  it("finds a card number written next to other digits (expiry, CVV, a prefix)", () => {
    expect(holdsCardNumber("4111 1111 1111 1111 12/28")).toBe(true)
    expect(holdsCardNumber("4111 1111 1111 1111 123")).toBe(true)
    expect(holdsCardNumber("ref 12 4111-1111-1111-1111")).toBe(true)
  })

  it("accepts Luhn-invalid numbers, too short or too long runs, phone numbers and order ids", () => {
    const harmless = [
      "4111111111111112", "4111 1111 1111 1112", "4111-1111-1111-1113", 4111111111111112,
      "123456789015", // Luhn-valid but 12 digits
      "12345678901234567894", // Luhn-valid but 20 digits in one group
      "+1 415-555-0123", "+44 20 7946 0958", "(415) 555 0123", "+49 30 901820",
      "ORD-2028-000123", "order_9876543210", "INV-2028-0001", "2028-03-31", "3f2b6a10-9c4e-4d1a-8b7e-0c1d2e3f4a5b"
    ]
    for (const value of harmless) expect(metadataProblem({ value }), String(value)).toBeUndefined()
    expect(metadataProblem({ list: harmless })).toBeUndefined()
  })
})

import { describe, expect, it } from "vitest"
import { constantTimeEqualBytes, constantTimeEqualHex, decodeHex, hmacSha256, hmacSha256Hex } from "./hmac.js"

// printf '%s' 'abc' | openssl dgst -sha256 -hmac 'key'
const ABC_KEY = "9c196e32dc0175f86f4b1cb89289d6619de6bee699e4c378e68309ed97a1a6ab"

describe("hmacSha256Hex", () => {
  it("matches openssl for string key and data", () => {
    expect(hmacSha256Hex("key", "abc")).toBe(ABC_KEY)
  })

  it("treats strings as UTF-8, so bytes and strings agree", () => {
    const enc = new TextEncoder()
    expect(hmacSha256Hex(enc.encode("key"), enc.encode("abc"))).toBe(ABC_KEY)
    expect(Buffer.from(hmacSha256("key", "abc")).toString("hex")).toBe(ABC_KEY)
  })
})

describe("decodeHex", () => {
  it("decodes either case and refuses anything else", () => {
    expect(decodeHex("0aFf")).toEqual(Uint8Array.from([0x0a, 0xff]))
    expect(decodeHex("")).toEqual(new Uint8Array(0))
    expect(decodeHex("abc")).toBeUndefined()
    expect(decodeHex("abZZ")).toBeUndefined()
    expect(decodeHex(" ab")).toBeUndefined()
  })
})

describe("constantTimeEqualHex", () => {
  it("is true for the same bytes in any hex case", () => {
    expect(constantTimeEqualHex(ABC_KEY, ABC_KEY.toUpperCase())).toBe(true)
  })

  it("is false, without throwing, for different lengths or bad hex", () => {
    expect(constantTimeEqualHex(ABC_KEY, ABC_KEY.slice(0, 62))).toBe(false)
    expect(constantTimeEqualHex(ABC_KEY, "")).toBe(false)
    expect(constantTimeEqualHex(ABC_KEY, `${ABC_KEY.slice(0, 62)}zz`)).toBe(false)
    expect(constantTimeEqualHex("abc", "abc")).toBe(false)
  })

  it("is false for one differing byte", () => {
    expect(constantTimeEqualHex(ABC_KEY, `${ABC_KEY.slice(0, 62)}ac`)).toBe(false)
  })
})

describe("constantTimeEqualBytes", () => {
  it("compares contents and tolerates different lengths", () => {
    expect(constantTimeEqualBytes(Uint8Array.from([1, 2]), Uint8Array.from([1, 2]))).toBe(true)
    expect(constantTimeEqualBytes(Uint8Array.from([1, 2]), Uint8Array.from([1, 3]))).toBe(false)
    expect(constantTimeEqualBytes(Uint8Array.from([1, 2]), Uint8Array.from([1]))).toBe(false)
    expect(constantTimeEqualBytes(new Uint8Array(0), new Uint8Array(0))).toBe(true)
  })
})

import { describe, expect, it } from "vitest"
import { issueCheckoutToken, MAX_CHECKOUT_TOKEN_LENGTH, verifyCheckoutToken } from "./checkout-token.js"
import { hmacSha256Hex } from "./hmac.js"

const KEY = "checkout-master"
const TRX = "SANDBOX_0000000000000000000000000A"
const EXPIRES = 1_700_000_600

// Known answer computed outside the code under test:
//   DK=$(printf '%s' 'merchant-payments/checkout-token/v1' | openssl dgst -sha256 -hmac 'checkout-master' | awk '{print $2}')
//   printf '\x01\x00\x00\x00\x00\x65\x53\xf3\x58%s' 'SANDBOX_0000000000000000000000000A' > payload.bin   # 1700000600 = 0x6553f358
//   basenc --base64url -w0 payload.bin | tr -d '='
//   openssl dgst -sha256 -mac HMAC -macopt hexkey:$DK -binary payload.bin | basenc --base64url -w0 | tr -d '='
const KNOWN_TOKEN =
  "AQAAAABlU_NYU0FOREJPWF8wMDAwMDAwMDAwMDAwMDAwMDAwMDAwMDAwQQ.YonPSzMzRfV1Kmn8Z2dv4gMi6CBViaUOyQg8qY7qMLM"

const token = issueCheckoutToken({ key: KEY, trxId: TRX, expiresAtSeconds: EXPIRES })
const verify = (t: string, nowSeconds = EXPIRES - 1, key: string | Uint8Array = KEY) =>
  verifyCheckoutToken({ key, token: t, nowSeconds })

/** Flips one character of a base64url string to another valid character at the same position. */
const flipChar = (text: string, index: number): string =>
  text.slice(0, index) + (text[index] === "A" ? "B" : "A") + text.slice(index + 1)

describe("issueCheckoutToken", () => {
  it("matches the openssl-computed known answer", () => {
    expect(token).toBe(KNOWN_TOKEN)
  })

  it("is URL-safe", () => {
    expect(token).toMatch(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/)
    expect(encodeURIComponent(token)).toBe(token)
  })

  it("refuses inputs no caller should pass", () => {
    expect(() => issueCheckoutToken({ key: KEY, trxId: "", expiresAtSeconds: EXPIRES })).toThrow(RangeError)
    expect(() => issueCheckoutToken({ key: KEY, trxId: "x".repeat(257), expiresAtSeconds: EXPIRES })).toThrow(RangeError)
    expect(() => issueCheckoutToken({ key: KEY, trxId: TRX, expiresAtSeconds: 1.5 })).toThrow(RangeError)
    expect(() => issueCheckoutToken({ key: KEY, trxId: TRX, expiresAtSeconds: -1 })).toThrow(RangeError)
  })

  it("keeps the longest allowed trxId within the verification limit", () => {
    const long = issueCheckoutToken({ key: KEY, trxId: "é".repeat(128), expiresAtSeconds: Number.MAX_SAFE_INTEGER })
    expect(long.length).toBeLessThanOrEqual(MAX_CHECKOUT_TOKEN_LENGTH)
    expect(verify(long)).toEqual({ _tag: "Valid", trxId: "é".repeat(128), expiresAtSeconds: Number.MAX_SAFE_INTEGER })
  })
})

describe("verifyCheckoutToken", () => {
  it("is valid before expiry", () => {
    expect(verify(token)).toEqual({ _tag: "Valid", trxId: TRX, expiresAtSeconds: EXPIRES })
  })

  it("is expired at and after the expiry instant", () => {
    expect(verify(token, EXPIRES)).toEqual({ _tag: "Expired", trxId: TRX, expiresAtSeconds: EXPIRES })
    expect(verify(token, EXPIRES + 86_400)).toEqual({ _tag: "Expired", trxId: TRX, expiresAtSeconds: EXPIRES })
  })

  it("accepts the same key as bytes or string", () => {
    expect(verify(token, EXPIRES - 1, new TextEncoder().encode(KEY))).toMatchObject({ _tag: "Valid" })
  })

  it("is invalid under another key, even when expired", () => {
    expect(verify(token, EXPIRES - 1, "other-key")).toEqual({ _tag: "Invalid" })
    expect(verify(token, EXPIRES + 1, "other-key")).toEqual({ _tag: "Invalid" })
  })

  it("is invalid when the payload is tampered with", () => {
    const [payload, mac] = token.split(".") as [string, string]
    for (const index of [0, 5, 8, 20, payload.length - 2]) {
      expect(verify(`${flipChar(payload, index)}.${mac}`)).toEqual({ _tag: "Invalid" })
    }
    // A genuinely re-issued payload with a later expiry, carrying the old MAC.
    const later = issueCheckoutToken({ key: KEY, trxId: TRX, expiresAtSeconds: EXPIRES + 3600 }).split(".")[0]
    expect(verify(`${later}.${mac}`, EXPIRES + 1)).toEqual({ _tag: "Invalid" })
  })

  it("is invalid when the MAC is tampered with or truncated", () => {
    const [payload, mac] = token.split(".") as [string, string]
    expect(verify(`${payload}.${flipChar(mac, 0)}`)).toEqual({ _tag: "Invalid" })
    expect(verify(`${payload}.${flipChar(mac, 30)}`)).toEqual({ _tag: "Invalid" })
    expect(verify(`${payload}.${mac.slice(0, 22)}`)).toEqual({ _tag: "Invalid" })
    expect(verify(`${payload}.`)).toEqual({ _tag: "Invalid" })
  })

  it("rejects a non-canonical spelling of the MAC", () => {
    // The last of 43 base64url characters carries 2 unused bits; Buffer would ignore them.
    const [payload, mac] = token.split(".") as [string, string]
    const last = mac[mac.length - 1]!
    const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
    const sibling = alphabet[alphabet.indexOf(last) ^ 1]!
    expect(verify(`${payload}.${mac.slice(0, -1)}${sibling}`)).toEqual({ _tag: "Invalid" })
  })

  it("never accepts a MAC made with the master key directly (domain separation)", () => {
    const [payload] = token.split(".") as [string]
    const raw = Buffer.from(payload, "base64url")
    const direct = Buffer.from(hmacSha256Hex(KEY, raw), "hex").toString("base64url")
    expect(verify(`${payload}.${direct}`)).toEqual({ _tag: "Invalid" })
  })

  it.each([
    ["empty", ""],
    ["a dot", "."],
    ["one part", "AQAAAABlU_NY"],
    ["three parts", `${token}.AAAA`],
    ["padding", `${token}=`],
    ["standard base64 characters", token.replace(/_/g, "/")],
    ["spaces", ` ${token}`],
    ["non-ASCII", `${token}é`],
    ["too long", `${"A".repeat(MAX_CHECKOUT_TOKEN_LENGTH)}.${"A".repeat(43)}`],
    ["huge", "A".repeat(1_000_000)],
    ["garbage", "not a token at all"]
  ])("is invalid, without throwing, for %s", (_name, garbage) => {
    expect(verify(garbage)).toEqual({ _tag: "Invalid" })
  })
})

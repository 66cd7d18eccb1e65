import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { type AttemptResult, backoffDelay, DEFAULT_BACKOFF, isRetryable, parseRetryAfter, retryDelay } from "./retry-policy.js"

const unit = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true })
const settingsWith = (random: number) => ({ ...DEFAULT_BACKOFF, random: () => random })
const answer = (status: number, retryAfterMs?: number): AttemptResult => ({ kind: "answer", status, retryAfterMs })

describe("parseRetryAfter", () => {
  it("reads delta-seconds as milliseconds", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 1_000_000 }), fc.integer(), (seconds, now) => {
      expect(parseRetryAfter(String(seconds), now)).toBe(seconds * 1000)
      expect(parseRetryAfter(` ${seconds} `, now)).toBe(seconds * 1000)
    }))
  })

  it("reads an HTTP date as the time left until it, and a past date as 0", () => {
    const nowMs = Date.UTC(2030, 0, 1)
    fc.assert(fc.property(fc.integer({ min: -86_400, max: 86_400 }), (offsetSeconds) => {
      const date = new Date(nowMs + offsetSeconds * 1000).toUTCString()
      expect(parseRetryAfter(date, nowMs)).toBe(Math.max(0, offsetSeconds * 1000))
    }))
    expect(parseRetryAfter("Wed, 01 Jan 2030 00:00:07 GMT", nowMs)).toBe(7_000)
  })

  it("ignores what is neither", () => {
    for (const text of [null, undefined, "", "-5", "1.5", "soon", "5s", "0x10"]) {
      expect(parseRetryAfter(text, 0), String(text)).toBeUndefined()
    }
  })
})

describe("backoffDelay: full jitter", () => {
  it("stays within [0, min(cap, base * 2^retry)) and never goes negative", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 60 }), unit, (retry, random) => {
      const delay = backoffDelay(retry, settingsWith(random))
      const ceiling = Math.min(10_000, 250 * 2 ** retry)
      expect(delay).toBeGreaterThanOrEqual(0)
      expect(delay).toBeLessThan(ceiling)
      expect(Number.isInteger(delay)).toBe(true)
    }))
  })

  it("doubles the ceiling per retry up to the cap", () => {
    const top = settingsWith(0.999999)
    expect([0, 1, 2, 3, 4, 5, 6, 10].map((retry) => backoffDelay(retry, top))).toEqual([249, 499, 999, 1999, 3999, 7999, 9999, 9999])
    expect(backoffDelay(3, settingsWith(0))).toBe(0)
  })

  it("spreads clients refused together: the random draw alone decides where in the window", () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: 5 }), unit, unit, (retry, a, b) => {
      const [low, high] = a <= b ? [a, b] : [b, a]
      expect(backoffDelay(retry, settingsWith(low))).toBeLessThanOrEqual(backoffDelay(retry, settingsWith(high)))
    }))
  })
})

describe("retryDelay", () => {
  it("retries 429 and 503 (Retry-After first, else backoff), and a 409 only when it carries Retry-After", () => {
    const top = settingsWith(0.5)
    expect(retryDelay(answer(429, 3_000), 0, 3, top)).toBe(3_000)
    expect(retryDelay(answer(503), 1, 3, top)).toBe(250)
    expect(retryDelay(answer(409, 1_000), 0, 3, top)).toBe(1_000)
    expect(retryDelay(answer(409), 0, 3, top)).toBeUndefined()
    expect(retryDelay({ kind: "no-answer" }, 2, 3, top)).toBe(500)
  })

  it("never retries any other status, whatever it carries", () => {
    const other = fc.integer({ min: 100, max: 599 }).filter((status) => ![409, 429, 503].includes(status))
    fc.assert(fc.property(other, fc.option(fc.nat(), { nil: undefined }), fc.nat(5), (status, retryAfterMs, retry) => {
      expect(isRetryable(answer(status, retryAfterMs))).toBe(false)
      expect(retryDelay(answer(status, retryAfterMs), retry, 10, DEFAULT_BACKOFF)).toBeUndefined()
    }))
  })

  it("stops once the retries are spent", () => {
    fc.assert(fc.property(fc.nat(10), fc.nat(10), (retry, retries) => {
      const delay = retryDelay(answer(503), retry, retries, DEFAULT_BACKOFF)
      expect(delay === undefined).toBe(retry >= retries)
    }))
  })

  it("does not wait for a Retry-After beyond the maximum: the caller gets the answer instead", () => {
    expect(retryDelay(answer(429, 60_000), 0, 3, DEFAULT_BACKOFF)).toBe(60_000)
    expect(retryDelay(answer(429, 60_001), 0, 3, DEFAULT_BACKOFF)).toBeUndefined()
  })
})

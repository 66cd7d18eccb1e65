import { Effect, TestClock, TestContext } from "effect"
import { describe, expect, it } from "vitest"
import { fromIsoString, fromSeconds, Instant, now, plusSeconds, toIsoString, toSeconds } from "./instant.js"

describe("instants keep microseconds", () => {
  it("formats ISO 8601 UTC with exactly six fraction digits and Z", () => {
    expect(toIsoString(Instant(1_700_000_000_123_456n))).toBe("2023-11-14T22:13:20.123456Z")
    expect(toIsoString(Instant(1_700_000_000_000_001n))).toBe("2023-11-14T22:13:20.000001Z")
    expect(toIsoString(Instant(0n))).toBe("1970-01-01T00:00:00.000000Z")
    // Before the epoch the microseconds still count forward within their millisecond.
    expect(toIsoString(Instant(-1n))).toBe("1969-12-31T23:59:59.999999Z")
  })

  it("parses ISO 8601 with offsets and fractions, refusing what is not one", () => {
    expect(fromIsoString("2023-11-14T22:13:20.123456Z")).toBe(1_700_000_000_123_456n)
    expect(fromIsoString("2023-11-14T23:13:20.5+01:00")).toBe(1_700_000_000_500_000n)
    expect(fromIsoString("2023-11-14T22:13:20Z")).toBe(1_700_000_000_000_000n)
    expect(fromIsoString("2023-11-14T22:13:20.1234567Z")).toBe(1_700_000_000_123_456n)
    expect(fromIsoString("2023-11-14 22:13:20Z")).toBeUndefined()
    expect(fromIsoString("2023-11-14T22:13:20")).toBeUndefined()
    expect(fromIsoString("2023-13-14T22:13:20Z")).toBeUndefined()
    expect(fromIsoString("2023-02-30T00:00:00Z")).toBeUndefined()
    expect(fromIsoString("2023-02-29T00:00:00Z")).toBeUndefined()
    expect(fromIsoString("2024-02-29T00:00:00Z")).toBe(1_709_164_800_000_000n)
    expect(fromIsoString("2023-04-31T00:00:00Z")).toBeUndefined()
    expect(fromIsoString("2023-01-01T24:00:00Z")).toBeUndefined()
    expect(fromIsoString("2023-01-01T00:00:60Z")).toBeUndefined()
    expect(fromIsoString("2023-01-01T00:00:00+24:00")).toBeUndefined()
    expect(fromIsoString("2023-01-01T00:00:00-05:30")).toBe(1_672_551_000_000_000n)
    expect(fromIsoString("yesterday")).toBeUndefined()
  })

  it("round trips through text", () => {
    for (const micros of [0n, 1n, 999_999n, 1_795_300_000_654_321n]) {
      expect(fromIsoString(toIsoString(Instant(micros)))).toBe(micros)
    }
  })

  it("converts seconds both ways, rounding down", () => {
    expect(fromSeconds(1_700_000_000)).toBe(1_700_000_000_000_000n)
    expect(toSeconds(Instant(1_700_000_000_999_999n))).toBe(1_700_000_000)
    expect(toSeconds(Instant(-1n))).toBe(-1)
    expect(plusSeconds(Instant(5n), 2)).toBe(2_000_005n)
  })

  it("reads business time from the Clock, so a test clock moves it", async () => {
    const [before, after] = await Effect.gen(function*() {
      const before = yield* now
      yield* TestClock.adjust("90 seconds")
      return [before, yield* now] as const
    }).pipe(Effect.provide(TestContext.TestContext), Effect.runPromise)
    expect(after - before).toBe(90_000_000n)
  })
})

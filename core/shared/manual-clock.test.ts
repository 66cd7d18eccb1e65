import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { now } from "./instant.js"
import { makeManualClock } from "./manual-clock.js"

describe("manual clock", () => {
  it("stands still until advanced, and business time reads it", async () => {
    const manual = makeManualClock(1_800_000_000_000)
    const read = now.pipe(Effect.withClock(manual.clock))
    const first = await Effect.runPromise(read)
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(await Effect.runPromise(read)).toBe(first)
    expect(first).toBe(1_800_000_000_000_000n)
    expect(await Effect.runPromise(manual.advance(3600))).toBe(1_800_003_600_000_000n)
    expect(await Effect.runPromise(read)).toBe(1_800_003_600_000_000n)
  })

  it("still sleeps in real time", async () => {
    const manual = makeManualClock(0)
    const started = performance.now()
    await Effect.runPromise(Effect.sleep("30 millis").pipe(Effect.withClock(manual.clock)))
    expect(performance.now() - started).toBeGreaterThanOrEqual(25)
  })
})

import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { defaultBillingSettings } from "./billing-settings.js"
import { fromSeconds, plusSeconds } from "../shared/instant.js"
import { planRetry } from "./retry-plan.js"

const first = fromSeconds(1_900_000_000)
const hours = (n: number) => plusSeconds(first, n * 3_600)

describe("planRetry", () => {
  it("with the defaults: 8 tries within 2 weeks, each retry timed from the renewal's first try", () => {
    const retries = defaultBillingSettings.retryHours
    const times = []
    for (let tries = 1; tries <= 8; tries++) {
      const plan = planRetry("declined", tries, first, retries, first)
      if (plan._tag === "FallBack") {
        expect(tries).toBe(8)
        expect(plan.reason).toBe("tries_exhausted")
        break
      }
      times.push(plan.at)
    }
    expect(times).toEqual([24, 72, 120, 168, 216, 264, 336].map(hours))
    expect(times.length + 1).toBe(8)
    expect(times.at(-1)! <= hours(14 * 24)).toBe(true)
  })

  it("never retries a hard decline or a demand for authentication, whatever tries are left", () => {
    expect(planRetry("hard_declined", 1, first, [24, 72], first)).toEqual({ _tag: "FallBack", reason: "hard_decline" })
    expect(planRetry("authentication_required", 1, first, [24, 72], first)).toEqual({ _tag: "FallBack", reason: "authentication_required" })
  })

  it("a merchant with no retry hours falls back at the first decline", () => {
    expect(planRetry("declined", 1, first, [], first)).toEqual({ _tag: "FallBack", reason: "tries_exhausted" })
  })

  it("a late tick never schedules a retry in the past, nor moves one that is still ahead", () => {
    fc.assert(fc.property(
      fc.uniqueArray(fc.integer({ min: 1, max: 1_440 }), { minLength: 1, maxLength: 10 }).map((list) => [...list].sort((a, b) => a - b)),
      fc.integer({ min: 1, max: 10 }),
      fc.integer({ min: 0, max: 2_000 }),
      (retryHours, tries, lateHours) => {
        const at = hours(lateHours)
        const plan = planRetry("declined", tries, first, retryHours, at)
        if (tries > retryHours.length) return plan._tag === "FallBack"
        if (plan._tag !== "RetryAt") return false
        const planned = hours(retryHours[tries - 1]!)
        return plan.at >= at && (planned > at ? plan.at === planned : plan.at === at)
      }
    ))
  })
})

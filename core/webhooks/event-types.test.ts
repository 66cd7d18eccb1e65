import { describe, expect, it } from "vitest"
import { ACCOUNT_EVENT_TYPES, EVENT_TYPES, eventPatternRefusal, patternMatches } from "./event-types.js"

describe("event types and subscription patterns", () => {
  it("accepts every declared type, its family's pattern and *; refuses anything else, naming it", () => {
    for (const type of EVENT_TYPES) {
      expect(eventPatternRefusal(type)).toBeUndefined()
      expect(eventPatternRefusal(`${type.split(".")[0]}.*`)).toBeUndefined()
    }
    expect(eventPatternRefusal("*")).toBeUndefined()
    for (const unknown of ["payout.sent", "payouts.*", "payout", "payout.", ".*", "**", "test", "PAYOUT.PAID", "payout.paid "]) {
      expect(eventPatternRefusal(unknown), unknown).toContain(`"${unknown}" is not a known event type`)
    }
  })

  it("a family pattern takes its family's types only; * takes all; a type takes itself", () => {
    expect(ACCOUNT_EVENT_TYPES.filter((type) => patternMatches("payout.*", type))).toEqual(["payout.created", "payout.paid", "payout.failed"])
    expect(EVENT_TYPES.filter((type) => patternMatches("payment.*", type))).toEqual(EVENT_TYPES.filter((type) => type.startsWith("payment.")))
    expect(EVENT_TYPES.every((type) => patternMatches("*", type))).toBe(true)
    expect(EVENT_TYPES.filter((type) => patternMatches("dispute.created", type))).toEqual(["dispute.created"])
    // A family is the whole word before the dot: subscription.* is not invoice.created.
    expect(patternMatches("subscription.*", "invoice.created")).toBe(false)
  })
})

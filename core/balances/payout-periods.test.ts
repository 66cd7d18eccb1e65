import { describe, expect, it } from "vitest"
import { fromMillis } from "../shared/instant.js"
import { periodStart } from "./payout-periods.js"

const at = (iso: string) => fromMillis(Date.parse(iso))

describe("the period an automatic payout belongs to (UTC)", () => {
  it("daily: the day; weekly: its Monday; monthly: its 1st", () => {
    // 2030-05-01 is a Wednesday.
    expect(periodStart("daily", at("2030-05-01T23:59:59.999Z"))).toBe("2030-05-01")
    expect(periodStart("daily", at("2030-05-02T00:00:00Z"))).toBe("2030-05-02")
    expect(periodStart("weekly", at("2030-05-01T12:00:00Z"))).toBe("2030-04-29")
    expect(periodStart("weekly", at("2030-04-29T00:00:00Z"))).toBe("2030-04-29")
    expect(periodStart("weekly", at("2030-05-05T23:59:59Z"))).toBe("2030-04-29")
    expect(periodStart("weekly", at("2030-05-06T00:00:00Z"))).toBe("2030-05-06")
    expect(periodStart("monthly", at("2030-05-31T23:00:00Z"))).toBe("2030-05-01")
    expect(periodStart("monthly", at("2030-06-01T00:00:00Z"))).toBe("2030-06-01")
  })
})

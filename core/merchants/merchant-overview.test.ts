import { describe, expect, it } from "vitest"
import { fromIsoString, toIsoString } from "../shared/instant.js"
import { utcMidnight } from "./merchant-overview.js"

const midnightOf = (iso: string) => toIsoString(utcMidnight(fromIsoString(iso)!))

describe("utcMidnight", () => {
  it("is the start of the UTC day, whatever the offset the moment was written with", () => {
    expect(midnightOf("2025-03-09T23:59:59.999999Z")).toBe("2025-03-09T00:00:00.000000Z")
    expect(midnightOf("2025-03-10T00:00:00Z")).toBe("2025-03-10T00:00:00.000000Z")
    // 01:30 in Dhaka is still the previous day in UTC.
    expect(midnightOf("2025-03-10T01:30:00+06:00")).toBe("2025-03-09T00:00:00.000000Z")
    expect(midnightOf("2024-02-29T12:00:00Z")).toBe("2024-02-29T00:00:00.000000Z")
  })
})

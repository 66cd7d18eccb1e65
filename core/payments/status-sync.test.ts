import { describe, expect, it } from "vitest"
import { Instant, MICROS_PER_SECOND } from "../shared/instant.js"
import { firstSyncAt, syncDelay } from "./status-sync.js"

describe("status sync backoff", () => {
  it("asks after 1, 2, 4 and 8 minutes, then every 15 until the checkout expires", () => {
    expect([0, 1, 2, 3, 4, 5, 10, 1_000].map((count) => syncDelay(count) / MICROS_PER_SECOND)).toEqual([60n, 120n, 240n, 480n, 900n, 900n, 900n, 900n])
    expect(firstSyncAt(Instant(5n * MICROS_PER_SECOND))).toBe(Instant(65n * MICROS_PER_SECOND))
  })
})

import { describe, expect, it } from "vitest"
import { ExpiringMap } from "./expiring-map.js"

describe("expiring map", () => {
  it("returns entries until their time runs out", () => {
    const map = new ExpiringMap<string, number>(5, 10)
    map.set("a", 1, 100)
    expect(map.get("a", 104)).toBe(1)
    expect(map.get("a", 105)).toBeUndefined()
    expect(map.get("a", 104)).toBeUndefined()
  })

  it("drops the oldest entry past its capacity, and clears", () => {
    const map = new ExpiringMap<string, number>(60, 2)
    map.set("a", 1, 0)
    map.set("b", 2, 0)
    map.set("c", 3, 0)
    expect([map.get("a", 1), map.get("b", 1), map.get("c", 1)]).toEqual([undefined, 2, 3])
    map.clear()
    expect(map.get("b", 1)).toBeUndefined()
  })
})

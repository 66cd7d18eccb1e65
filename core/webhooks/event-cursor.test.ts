import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Instant } from "../shared/instant.js"
import { decodeEventCursor, encodeEventCursor } from "./event-cursor.js"

describe("event cursor", () => {
  it("reads back what it wrote", () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 2n ** 62n }), fc.stringMatching(/^[\x21-\x7e]{1,100}$/), (micros, id) => {
      const cursor = { createdAt: Instant(micros), id }
      expect(decodeEventCursor(encodeEventCursor(cursor))).toEqual(cursor)
    }))
  })

  it("refuses text it did not write", () => {
    for (const text of ["", "not a cursor!", "abc", Buffer.from("x.evt").toString("base64url"), Buffer.from("12.").toString("base64url"), "A".repeat(201)]) {
      expect(decodeEventCursor(text)).toBeUndefined()
    }
  })
})

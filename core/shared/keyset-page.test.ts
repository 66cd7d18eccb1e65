import { Effect, Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Instant } from "./instant.js"
import { keysetCursor, keysetPage } from "./keyset-page.js"

const textIds = keysetCursor("[\\x21-\\x7e]{1,100}", String)
const numberIds = keysetCursor("[1-9]\\d{0,14}", Number)

describe("keyset cursor", () => {
  it("reads back what it wrote, for text ids and for number ids", () => {
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 2n ** 62n }), fc.stringMatching(/^[\x21-\x7e]{1,100}$/), (micros, id) => {
      const position = { createdAt: Instant(micros), id }
      expect(textIds.decode(textIds.encode(position))).toEqual(position)
    }))
    fc.assert(fc.property(fc.bigInt({ min: 0n, max: 2n ** 62n }), fc.integer({ min: 1, max: 999_999_999_999_999 }), (micros, id) => {
      const position = { createdAt: Instant(micros), id }
      expect(numberIds.decode(numberIds.encode(position))).toEqual(position)
    }))
  })

  it("refuses text it did not write", () => {
    for (const text of ["", "not a cursor!", "abc", Buffer.from("x.evt").toString("base64url"), Buffer.from("12.").toString("base64url"), "A".repeat(201)]) {
      expect(textIds.decode(text)).toBeUndefined()
    }
    expect(numberIds.decode(textIds.encode({ createdAt: Instant(5n), id: "evt_1" }))).toBeUndefined()
  })
})

describe("keyset page", () => {
  const rows = Array.from({ length: 7 }, (_, i) => ({ createdAt: Instant(BigInt(100 - i)), id: 7 - i }))
  // Newest first, after `before` when given: what a store's keyset query answers.
  const fetch = ({ before, limit }: { readonly limit: number; readonly before?: { readonly createdAt: Instant; readonly id: number } }) =>
    Effect.succeed(rows.filter((row) => before === undefined || row.createdAt < before.createdAt).slice(0, limit))

  it("walks every row once, page by page, and says when there is no next page", async () => {
    const seen: Array<number> = []
    let cursor: string | null | undefined
    do {
      const page = await Effect.runPromise(keysetPage(numberIds, { limit: 3, ...(cursor != null ? { cursor } : {}) }, fetch))
      seen.push(...page.rows.map((row) => row.id))
      cursor = page.nextCursor
    } while (cursor !== null)
    expect(seen).toEqual([7, 6, 5, 4, 3, 2, 1])
  })

  it("refuses a cursor it did not give and a range that holds nothing, naming the field", async () => {
    const refusal = async (request: Parameters<typeof keysetPage>[1]) =>
      Either.getLeft(await Effect.runPromise(Effect.either(keysetPage(numberIds, request, fetch))))
    expect((await refusal({ limit: 3, cursor: "nope" })).pipe((error) => error._tag === "Some" ? error.value.errors : undefined))
      .toEqual({ cursor: ["The cursor must be a next_cursor this API gave."] })
    expect((await refusal({ limit: 3, since: Instant(10n), until: Instant(10n) })).pipe((error) => error._tag === "Some" ? error.value.errors : undefined))
      .toEqual({ until: ["The until time must be after since."] })
  })
})

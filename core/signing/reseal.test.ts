import { Either, Option } from "effect"
import { describe, expect, it } from "vitest"
import { isSealedText, resealValue, resealWithin, sealedValuesIn } from "./reseal.js"
import { generateMasterKey, open, parseMasterKey, seal } from "./secret-box.js"

const newKey = () => Either.getOrThrow(parseMasterKey(generateMasterKey()))
const keys = { next: newKey(), previous: newKey() }

describe("re-sealing under the next master key", () => {
  it("moves a value from the previous key to the next, and leaves one already under the next", () => {
    const moved = Either.getOrThrow(resealValue(keys, seal(keys.previous, "whsec_1")))
    expect(Option.isSome(moved)).toBe(true)
    expect(open(keys.next, Option.getOrThrow(moved))).toEqual(Either.right("whsec_1"))
    expect(Either.getOrThrow(resealValue(keys, seal(keys.next, "whsec_2")))).toEqual(Option.none())
  })

  it("refuses a value under neither key, and text that is not sealed", () => {
    expect(Either.isLeft(resealValue(keys, seal(newKey(), "lost")))).toBe(true)
    expect(Either.isLeft(resealValue(keys, "plain text"))).toBe(true)
  })

  it("re-seals the sealed values inside a JSON document and leaves every other byte", () => {
    const secret = seal(keys.previous, JSON.stringify("sk_test_1"))
    const current = seal(keys.next, JSON.stringify("whsec_x"))
    const text = JSON.stringify({ secret_key: secret, webhook_secret: current, api_base: "v1.not-sealed", n: 12345678901234567890 })
    const report = Either.getOrThrow(resealWithin(keys, text))
    expect([report.resealed, report.alreadyCurrent]).toEqual([1, 1])
    const resealed = Option.getOrThrow(report.text)
    const [first, second] = sealedValuesIn(resealed)
    expect(open(keys.next, first!)).toEqual(Either.right(JSON.stringify("sk_test_1")))
    expect(second).toBe(current)
    expect(resealed.replace(first!, secret)).toBe(text)
    expect(Either.getOrThrow(resealWithin(keys, resealed))).toEqual({ text: Option.none(), resealed: 0, alreadyCurrent: 2 })
  })

  it("knows the sealed form exactly", () => {
    expect(isSealedText(seal(keys.next, ""))).toBe(true)
    expect(isSealedText(seal(keys.next, "x".repeat(500)))).toBe(true)
    expect(isSealedText("v1.a.b.c")).toBe(false)
    expect(isSealedText(` ${seal(keys.next, "x")}`)).toBe(false)
  })
})

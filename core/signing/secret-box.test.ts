import { Effect, Either } from "effect"
import { describe, expect, it } from "vitest"
import { generateMasterKey, open, openWithAny, parseMasterKey, seal, SecretBox, secretBoxLayer } from "./secret-box.js"

const key = Either.getOrThrow(parseMasterKey("00112233445566778899aabbccddeeff00112233445566778899aabbccddeeff"))

describe("secret box", () => {
  it("opens what it sealed; each seal is different (fresh IV)", () => {
    const a = seal(key, "cs_secret ✓")
    const b = seal(key, "cs_secret ✓")
    expect(a).not.toBe(b)
    expect(a).not.toContain("cs_secret")
    expect(open(key, a)).toEqual(Either.right("cs_secret ✓"))
    expect(open(key, b)).toEqual(Either.right("cs_secret ✓"))
  })

  it("refuses another key, altered text, and garbage", () => {
    const sealed = seal(key, "whsec_value")
    const other = Either.getOrThrow(parseMasterKey(generateMasterKey()))
    expect(Either.isLeft(open(other, sealed))).toBe(true)
    const parts = sealed.split(".")
    const flipped = parts[3]!.startsWith("A") ? "B" + parts[3]!.slice(1) : "A" + parts[3]!.slice(1)
    expect(Either.isLeft(open(key, [parts[0], parts[1], parts[2], flipped].join(".")))).toBe(true)
    expect(Either.isLeft(open(key, "v1.x.y"))).toBe(true)
    expect(Either.isLeft(open(key, "v2." + parts.slice(1).join(".")))).toBe(true)
    expect(Either.isLeft(open(key, ""))).toBe(true)
  })

  it("reads a master key as 64 hex digits or base64, and refuses anything weaker", () => {
    const hex = generateMasterKey()
    expect(hex).toMatch(/^[0-9a-f]{64}$/)
    expect(Either.isRight(parseMasterKey(hex))).toBe(true)
    expect(Either.isRight(parseMasterKey(Buffer.from(hex, "hex").toString("base64")))).toBe(true)
    expect(Either.isRight(parseMasterKey(Buffer.from(hex, "hex").toString("base64url")))).toBe(true)
    expect(Either.isLeft(parseMasterKey("short"))).toBe(true)
    expect(Either.isLeft(parseMasterKey("0".repeat(62)))).toBe(true)
    expect(Either.isLeft(parseMasterKey(Buffer.alloc(16).toString("base64")))).toBe(true)
  })
})

describe("secret box with two keys (a master key rotation)", () => {
  const previous = Either.getOrThrow(parseMasterKey(generateMasterKey()))
  const current = Either.getOrThrow(parseMasterKey(generateMasterKey()))
  const both = Effect.runSync(Effect.provide(SecretBox, secretBoxLayer(current, previous)))
  const currentOnly = Effect.runSync(Effect.provide(SecretBox, secretBoxLayer(current)))

  it("opens what either key sealed, and seals with the current key only", () => {
    expect(both.open(seal(previous, "old secret"))).toEqual(Either.right("old secret"))
    expect(both.open(seal(current, "new secret"))).toEqual(Either.right("new secret"))
    const sealed = both.seal("sealed now")
    expect(open(current, sealed)).toEqual(Either.right("sealed now"))
    expect(Either.isLeft(open(previous, sealed))).toBe(true)
  })

  it("without the previous key, what it sealed no longer opens; a third key's value never does", () => {
    expect(Either.isLeft(currentOnly.open(seal(previous, "old secret")))).toBe(true)
    const stranger = Either.getOrThrow(parseMasterKey(generateMasterKey()))
    expect(Either.isLeft(both.open(seal(stranger, "foreign")))).toBe(true)
    expect(Either.isLeft(openWithAny([], seal(current, "x")))).toBe(true)
  })
})

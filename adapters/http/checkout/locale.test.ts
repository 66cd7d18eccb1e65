import { describe, expect, it } from "vitest"
import { directionOf, negotiateLocale } from "./locale.js"

describe("negotiateLocale", () => {
  it.each([
    [undefined, undefined, "en"],
    [undefined, "", "en"],
    [undefined, "fr", "fr"],
    [undefined, "fr-CA,fr;q=0.9,en;q=0.8", "fr"],
    [undefined, "de-DE,de;q=0.9,ar;q=0.5,fr;q=0.4", "ar"],
    [undefined, "en;q=0.1, fr;q=0.9", "fr"],
    [undefined, "fr;q=0, ar", "ar"],
    [undefined, "*, fr;q=0.5", "fr"],
    [undefined, "zh-Hant, ja", "en"],
    [undefined, "AR-eg", "ar"],
    [undefined, "fr;q=abc, ar;q=0.5", "fr"],
    ["ar", "fr", "ar"],
    ["fr-BE", "en", "fr"],
    ["xx", "fr", "fr"],
    ["", "ar", "ar"]
  ] as const)("locale=%s, Accept-Language %s: %s", (query, header, expected) => {
    expect(negotiateLocale(query, header)).toBe(expected)
  })

  it("reads only the first 32 entries of a long header", () => {
    expect(negotiateLocale(undefined, `${Array.from({ length: 40 }, (_, i) => `x${i}`).join(",")},fr`)).toBe("en")
  })

  it("writes Arabic right to left, the others left to right", () => {
    expect([directionOf("ar"), directionOf("fr"), directionOf("en")]).toEqual(["rtl", "ltr", "ltr"])
  })
})

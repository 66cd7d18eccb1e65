import { describe, expect, it } from "vitest"
import { maskIban } from "./payout-destination.js"

describe("a masked IBAN", () => {
  it("shows the country, the check digits and the last four, grouped by four", () => {
    expect(maskIban("DE89370400440532013000")).toBe("DE89 **** **** **** **30 00")
    expect(maskIban("GB29NWBK60161331926819")).toBe("GB29 **** **** **** **68 19")
    expect(maskIban("NO9386011117947")).toBe("NO93 **** ***7 947")
  })

  it("never holds the hidden digits", () => {
    const iban = "FR1420041010050500013M02606"
    const masked = maskIban(iban)
    expect(masked.replaceAll(" ", "")).toHaveLength(iban.length)
    expect(masked).not.toContain("2004101005")
    expect(masked.replaceAll(" ", "").replaceAll("*", "")).toBe("FR14" + "2606")
  })
})

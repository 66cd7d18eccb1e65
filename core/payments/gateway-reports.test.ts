import * as Effect from "effect/Effect"
import { describe, expect, it } from "vitest"
import { Amount } from "../money/amount.js"
import * as CurrencyCatalog from "../money/currency-catalog.js"
import { amountText } from "./gateway-reports.js"

const textOf = (atoms: bigint, currency: string) =>
  Effect.runSync(amountText(Amount(atoms), currency).pipe(Effect.provide(CurrencyCatalog.layer())))

describe("amountText", () => {
  it("writes a payment's amount in its currency's own digits", () => {
    expect(textOf(1_250_000_000n, "USD")).toBe("12.50")
    expect(textOf(150_000_000_000n, "JPY")).toBe("1500")
    expect(textOf(1_234_500_000n, "KWD")).toBe("12.345")
  })

  it("keeps every atom of a currency the catalog no longer knows: a plugin is never told a rounded amount", () => {
    // BTC is not in the default catalog: an operator configured it, took payments, and dropped it.
    expect(textOf(12_345_678n, "BTC")).toBe("0.12345678")
  })
})

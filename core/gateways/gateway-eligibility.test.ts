import { describe, expect, it } from "vitest"
import fc from "fast-check"
import { GatewayId } from "../shared/ids.js"
import { Instant } from "../shared/instant.js"
import { type Gateway, gatewayCode } from "./gateway.js"
import { eligibleGateways, narrowByKeywords, servedIn } from "./gateway-eligibility.js"
import { normalizeKeywords } from "./method-list.js"

const gateway = (id: number, name: string, method: string, currency: string, overrides: Partial<Gateway> = {}): Gateway => ({
  id: GatewayId(id),
  plugin: "sandbox",
  name,
  code: gatewayCode(method, currency),
  method,
  currency,
  type: "automatic",
  active: true,
  config: {},
  createdAt: Instant(0n),
  updatedAt: Instant(0n),
  ...overrides
})

const card = gateway(1, "Visa Card", "card", "USD")
const bkash = gateway(2, "bKash Wallet", "bkash", "USD")
const paypal = gateway(3, "PayPal", "paypal", "USD")
const manual = gateway(4, "Bank transfer", "bank", "USD", { type: "manual" })
const inactive = gateway(5, "Old card", "oldcard", "USD", { active: false })
const euro = gateway(6, "Card EUR", "card", "EUR")
const lowerUsd = gateway(7, "Odd usd", "odd", "usd", { currency: "usd" })
const all = [card, bkash, paypal, manual, inactive, euro, lowerUsd]
const ids = (gateways: ReadonlyArray<Gateway>) => gateways.map((g) => g.id)

describe("eligibleGateways", () => {
  it("without a selection offers every active automatic gateway of exactly the payment's currency", () => {
    expect(ids(eligibleGateways({ gateways: all, selection: [], currency: "USD" }))).toEqual([1, 2, 3])
    expect(ids(eligibleGateways({ gateways: all, selection: [], currency: "EUR" }))).toEqual([6])
    expect(ids(eligibleGateways({ gateways: all, selection: [], currency: "GBP" }))).toEqual([])
  })

  it("with a selection offers only selected gateways, and still only active automatic ones of the currency", () => {
    expect(ids(eligibleGateways({ gateways: all, selection: [GatewayId(2), GatewayId(3)], currency: "USD" }))).toEqual([2, 3])
    const excludedOnes = [manual, inactive, euro, lowerUsd].map((g) => g.id)
    expect(eligibleGateways({ gateways: all, selection: excludedOnes, currency: "USD" })).toEqual([])
    // A selection naming only gateways that are not eligible leaves none: it never falls back to all.
    expect(eligibleGateways({ gateways: all, selection: [GatewayId(6)], currency: "USD" })).toEqual([])
    // Selected ids with no gateway behind them are ignored.
    expect(ids(eligibleGateways({ gateways: all, selection: [GatewayId(1), GatewayId(99)], currency: "USD" }))).toEqual([1])
  })

  it("compares the currency exactly: no case folding", () => {
    expect(ids(eligibleGateways({ gateways: all, selection: [], currency: "usd" }))).toEqual([7])
  })

  it("excludes manual, inactive, other-currency and unselected gateways whatever the input", () => {
    const arbitraryGateway = fc.record({
      id: fc.integer({ min: 1, max: 20 }),
      type: fc.constantFrom("automatic" as const, "manual" as const),
      active: fc.boolean(),
      currency: fc.constantFrom("USD", "EUR", "usd")
    }).map((g) => gateway(g.id, `g${g.id}`, `m${g.id}`, g.currency, { type: g.type, active: g.active }))
    fc.assert(fc.property(fc.array(arbitraryGateway), fc.array(fc.integer({ min: 1, max: 20 })), (gateways, picked) => {
      const selection = picked.map(GatewayId)
      for (const g of eligibleGateways({ gateways, selection, currency: "USD" })) {
        expect(g.active && g.type === "automatic" && g.currency === "USD").toBe(true)
        if (selection.length > 0) expect(selection).toContain(g.id)
      }
    }))
  })
})

describe("narrowByKeywords", () => {
  const eligible = [card, bkash, paypal]

  it("leaves the gateways unchanged without keywords", () => {
    expect(narrowByKeywords(eligible, [])).toBe(eligible)
    expect(narrowByKeywords(eligible, [""])).toEqual(eligible)
  })

  it("keeps gateways whose name or code contains any keyword, case-insensitively", () => {
    expect(ids(narrowByKeywords(eligible, ["card"]))).toEqual([1])
    expect(ids(narrowByKeywords(eligible, ["wallet", "paypal"]))).toEqual([2, 3])
    expect(ids(narrowByKeywords(eligible, ["BKASH-usd"]))).toEqual([2])
    expect(ids(narrowByKeywords(eligible, ["usd"]))).toEqual([1, 2, 3])
    expect(narrowByKeywords(eligible, ["nagad"])).toEqual([])
  })

  it("can never add a gateway: keywords matching excluded ones add nothing", () => {
    expect(ids(narrowByKeywords(eligible, ["bank", "old", "eur", "card"]))).toEqual([1])
    fc.assert(fc.property(fc.subarray(all), fc.array(fc.string()), (input, words) => {
      const narrowed = narrowByKeywords(input, normalizeKeywords(words))
      for (const g of narrowed) expect(input).toContain(g)
      expect(narrowed.length).toBeLessThanOrEqual(input.length)
    }))
  })
})

describe("servedIn", () => {
  it("keeps the gateways whose plugin takes payments in the environment, none of an unknown plugin", () => {
    const stripe = gateway(8, "Stripe", "stripe", "USD", { plugin: "stripe" })
    const gone = gateway(9, "Removed", "gone", "USD", { plugin: "removed" })
    const plugins = [{ id: "sandbox", environments: ["sandbox" as const] }, { id: "stripe", environments: ["sandbox" as const, "production" as const] }]
    expect(ids(servedIn("sandbox", [card, stripe, gone], plugins))).toEqual([1, 8])
    expect(ids(servedIn("production", [card, stripe, gone], plugins))).toEqual([8])
  })
})

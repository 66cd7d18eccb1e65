import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { describe, expect, it } from "vitest"
import { Amount } from "../money/amount.js"
import { parsePayoutSettings } from "./payout-settings-admin.js"
import { defaultPayoutSettings, delayDaysIn, holdsReserve } from "./payout-settings.js"

const parse = (input: Parameters<typeof parsePayoutSettings>[0]) => Effect.runSync(Effect.either(parsePayoutSettings(input)))
const text = (value: string) => ({ kind: "string" as const, value })

describe("payout settings", () => {
  it("delay: the environment's default (sandbox 0, production 2) until a number is set, which then applies to both", () => {
    expect([delayDaysIn(defaultPayoutSettings, "sandbox"), delayDaysIn(defaultPayoutSettings, "production")]).toEqual([0, 2])
    const set = { ...defaultPayoutSettings, payoutDelayDays: 0 }
    expect([delayDaysIn(set, "sandbox"), delayDaysIn(set, "production")]).toEqual([0, 0])
  })

  it("an input replaces the whole set: what it leaves out takes its default", () => {
    expect(parse({})).toEqual(Either.right(defaultPayoutSettings))
    expect(parse({ reservePercent: text("2.5"), reserveDays: 30, payoutSchedule: "weekly", payoutMinimum: text("10.00000001") })).toEqual(Either.right({
      payoutDelayDays: null, reservePercent: Amount(250_000_000n), reserveDays: 30, payoutSchedule: "weekly", payoutMinimum: Amount(1_000_000_000n + 1n)
    }))
  })

  it("refuses a reserve percent over 100 or with more than 2 decimals, negative or fractional days, every field at once", () => {
    const refused = parse({ reservePercent: text("100.01"), reserveDays: -1, payoutDelayDays: 1.5, payoutMinimum: text("-1") })
    expect(Either.isLeft(refused) && Object.keys(refused.left.errors).sort()).toEqual(["payoutDelayDays", "payoutMinimum", "reserveDays", "reservePercent"])
    expect(Either.isLeft(parse({ reservePercent: text("2.555") }))).toBe(true)
    expect(Either.isRight(parse({ reservePercent: text("100"), reserveDays: 365, payoutDelayDays: 365 }))).toBe(true)
    expect(Either.isLeft(parse({ reserveDays: 366 }))).toBe(true)
  })

  it("holds a reserve only with both a percent and days", () => {
    expect(holdsReserve({ ...defaultPayoutSettings, reservePercent: Amount(1n), reserveDays: 0 })).toBe(false)
    expect(holdsReserve({ ...defaultPayoutSettings, reservePercent: Amount(0n), reserveDays: 3 })).toBe(false)
    expect(holdsReserve({ ...defaultPayoutSettings, reservePercent: Amount(1n), reserveDays: 3 })).toBe(true)
  })
})

import * as Schema from "effect/Schema"
import type { Amount } from "../money/amount.js"
import { ZERO } from "../money/amount.js"
import type { Environment } from "../shared/environment.js"

/** When the scheduler pays a merchant out by itself: never (manual), every day, every Monday, every 1st (UTC). */
export const PayoutSchedule = Schema.Literal("manual", "daily", "weekly", "monthly")
export type PayoutSchedule = typeof PayoutSchedule.Type

/**
 * How a merchant's money becomes payable and leaves by itself. One set per merchant, for both
 * environments and every currency.
 */
export interface PayoutSettings {
  /** Days a payment's net stays pending after it completed; null: the environment's default. */
  readonly payoutDelayDays: number | null
  /** Percent of each payment's net held as a rolling reserve, at the money scale (2.5 % = 2.5 units), at most 2 decimals. */
  readonly reservePercent: Amount
  /** Days each reserve hold lasts before it returns to the wallet. */
  readonly reserveDays: number
  readonly payoutSchedule: PayoutSchedule
  /** The least an automatic payout moves, in each currency's own units (at the money scale). */
  readonly payoutMinimum: Amount
}

/** What a merchant that was never given settings has. */
export const defaultPayoutSettings: PayoutSettings = {
  payoutDelayDays: null,
  reservePercent: ZERO,
  reserveDays: 0,
  payoutSchedule: "manual",
  payoutMinimum: ZERO
}

/** The payout delay when none is set: sandbox money is payable at once, production money after two days. */
export const DEFAULT_DELAY_DAYS: Record<Environment, number> = { sandbox: 0, production: 2 }

/** The longest delay or reserve an operator may set: a year. */
export const MAX_DAYS = 365

export const delayDaysIn = (settings: PayoutSettings, environment: Environment): number =>
  settings.payoutDelayDays ?? DEFAULT_DELAY_DAYS[environment]

/** A reserve holds something only with both a percent and a duration. */
export const holdsReserve = (settings: PayoutSettings): boolean => settings.reservePercent > 0n && settings.reserveDays > 0

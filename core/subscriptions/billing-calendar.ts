import { Instant } from "../shared/instant.js"
import type { BillingCycle } from "./subscription.js"

/**
 * The billing calendar: where each period of a subscription starts, in UTC.
 *
 * Month-based cycles keep the anchor's day of month (Jan 31 -> Feb 29 -> Mar 31) and its time of
 * day down to the microsecond, so a renewal never lands earlier in the day or the month than the
 * customer signed up for.
 */

const MICROS_PER_DAY = 86_400_000_000n
const MICROS_PER_MILLI = 1000n

type Calendar = { readonly kind: "days"; readonly days: bigint } | { readonly kind: "months"; readonly months: number }

const CALENDARS: Record<BillingCycle, Calendar> = {
  daily: { kind: "days", days: 1n },
  weekly: { kind: "days", days: 7n },
  monthly: { kind: "months", months: 1 },
  half_yearly: { kind: "months", months: 6 },
  yearly: { kind: "months", months: 12 }
}

interface CivilParts {
  readonly year: number
  /** 0-based, as Date.UTC takes it. */
  readonly month: number
  readonly day: number
  /** Microseconds since midnight UTC. */
  readonly timeOfDay: bigint
}

// Split through whole days so the sub-millisecond part of an Instant survives the trip through Date.
const toCivil = (instant: Instant): CivilParts => {
  const days = instant / MICROS_PER_DAY
  const date = new Date(Number(days * MICROS_PER_DAY / MICROS_PER_MILLI))
  return {
    year: date.getUTCFullYear(),
    month: date.getUTCMonth(),
    day: date.getUTCDate(),
    timeOfDay: instant - days * MICROS_PER_DAY
  }
}

// Date.UTC maps years 0..99 to 1900..1999; unreachable here since instants start at 1970.
const daysInMonth = (year: number, month: number): number => new Date(Date.UTC(year, month + 1, 0)).getUTCDate()

const monthIndex = (parts: CivilParts): number => parts.year * 12 + parts.month

const requireIndex = (n: number): void => {
  if (!Number.isSafeInteger(n)) throw new RangeError(`period index must be an integer, got ${n}`)
}

/**
 * The start of period `n` counted from `anchor` (period 0 starts at the anchor).
 *
 * Always computed from the anchor, never from the previous boundary: chaining would let a clamped
 * day (Feb 28) stick and drift every later renewal away from the 31st.
 */
export const periodBoundary = (anchor: Instant, cycle: BillingCycle, n: number): Instant => {
  requireIndex(n)
  const calendar = CALENDARS[cycle]
  if (calendar.kind === "days") return Instant(anchor + BigInt(n) * calendar.days * MICROS_PER_DAY)
  const start = toCivil(anchor)
  const target = monthIndex(start) + n * calendar.months
  const year = Math.floor(target / 12)
  const month = target - year * 12
  const day = Math.min(start.day, daysInMonth(year, month))
  return Instant(BigInt(Date.UTC(year, month, day)) * MICROS_PER_MILLI + start.timeOfDay)
}

/** Period `n` as a half-open interval [start, end). */
export const periodAt = (anchor: Instant, cycle: BillingCycle, n: number): { readonly start: Instant; readonly end: Instant } => ({
  start: periodBoundary(anchor, cycle, n),
  end: periodBoundary(anchor, cycle, n + 1)
})

/**
 * The index of the period that contains `at` (start <= at < end), for `at` at or after the anchor.
 * Month cycles estimate from the calendar months elapsed; the estimate is off by at most one
 * period (when `at` falls in a boundary's month but before its day or time), so no loop from 0.
 */
export const periodIndexAt = (anchor: Instant, cycle: BillingCycle, at: Instant): number => {
  if (at < anchor) throw new RangeError("periodIndexAt: at is before the anchor")
  const calendar = CALENDARS[cycle]
  if (calendar.kind === "days") return Number((at - anchor) / (calendar.days * MICROS_PER_DAY))
  const elapsedMonths = monthIndex(toCivil(at)) - monthIndex(toCivil(anchor))
  let n = Math.floor(elapsedMonths / calendar.months)
  while (n > 0 && periodBoundary(anchor, cycle, n) > at) n -= 1
  while (periodBoundary(anchor, cycle, n + 1) <= at) n += 1
  return n
}

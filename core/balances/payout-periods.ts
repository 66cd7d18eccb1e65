import type { Instant } from "../shared/instant.js"
import type { PayoutSchedule } from "./payout-settings.js"

const DAY_MILLIS = 86_400_000

const isoDate = (millis: number): string => new Date(millis).toISOString().slice(0, 10)

/**
 * The first day (UTC, `YYYY-MM-DD`) of the schedule's period holding `at`: the day itself (daily),
 * its week's Monday (weekly), its month's 1st (monthly). An automatic payout is made at the first
 * tick of each period, so a period whose first day no tick saw (a host down all Monday) is still
 * paid, late, once.
 */
export const periodStart = (schedule: Exclude<PayoutSchedule, "manual">, at: Instant): string => {
  const millis = Number(at / 1000n)
  const day = Math.floor(millis / DAY_MILLIS) * DAY_MILLIS
  switch (schedule) {
    case "daily":
      return isoDate(day)
    case "weekly":
      // getUTCDay: 0 is Sunday; Monday starts the week.
      return isoDate(day - ((new Date(day).getUTCDay() + 6) % 7) * DAY_MILLIS)
    case "monthly":
      return `${isoDate(day).slice(0, 8)}01`
  }
}

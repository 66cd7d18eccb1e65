import * as Brand from "effect/Brand"
import * as Clock from "effect/Clock"
import * as Effect from "effect/Effect"

/**
 * A point in time as whole microseconds since the Unix epoch.
 *
 * The API promises timestamps with microseconds; a JS Date holds milliseconds only, so time is
 * carried as a bigint of microseconds from the Clock to storage (BIGINT in both databases) and back.
 */
export type Instant = bigint & Brand.Brand<"Instant">
export const Instant = Brand.nominal<Instant>()

export const MICROS_PER_SECOND = 1_000_000n

/** Business time, from Effect's Clock so tests and the manual clock can move it. */
export const now: Effect.Effect<Instant> = Effect.map(Clock.currentTimeNanos, (nanos) => Instant(nanos / 1000n))

export const fromSeconds = (seconds: number | bigint): Instant => Instant(BigInt(seconds) * MICROS_PER_SECOND)

export const fromMillis = (millis: number): Instant => Instant(BigInt(Math.trunc(millis)) * 1000n)

/** Seconds from `earlier` to `later`, with their fraction: for durations told to operators, never for money. */
export const secondsBetween = (earlier: Instant, later: Instant): number => Number(later - earlier) / Number(MICROS_PER_SECOND)

/** Whole seconds, rounded down (Unix time for headers and payloads). */
export const toSeconds = (instant: Instant): number => Number(floorDiv(instant, MICROS_PER_SECOND))

export const plusSeconds = (instant: Instant, seconds: number | bigint): Instant =>
  Instant(instant + BigInt(seconds) * MICROS_PER_SECOND)

/** ISO 8601 in UTC with exactly six fraction digits and a trailing `Z` (spec 2.3). */
export const toIsoString = (instant: Instant): string => {
  const millis = floorDiv(instant, 1000n)
  const micros = instant - millis * 1000n
  const iso = new Date(Number(millis)).toISOString() // yyyy-mm-ddThh:mm:ss.sssZ
  return `${iso.slice(0, 23)}${micros.toString().padStart(3, "0")}Z`
}

const ISO_PATTERN = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(?:Z|([+-])(\d{2}):(\d{2}))$/

/**
 * Parses an ISO 8601 date-time with an explicit offset (`Z` or `+hh:mm`); undefined when it is
 * not one. Every field is range-checked here because Date.parse quietly rolls `02-30` into March.
 */
export const fromIsoString = (text: string): Instant | undefined => {
  const match = ISO_PATTERN.exec(text)
  if (match === null) return undefined
  const [year, month, day, hour, minute, second] = match.slice(1, 7).map(Number) as [number, number, number, number, number, number]
  const [fraction = "", sign, offsetHours = "00", offsetMinutes = "00"] = match.slice(7)
  const offset = (sign === "-" ? -1 : 1) * (Number(offsetHours) * 60 + Number(offsetMinutes))
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate()
  const valid = month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth && hour <= 23 && minute <= 59 &&
    second <= 59 && Number(offsetHours) <= 23 && Number(offsetMinutes) <= 59
  if (!valid) return undefined
  const millis = Date.UTC(year, month - 1, day, hour, minute, second) - offset * 60_000
  return Instant(BigInt(millis) * 1000n + BigInt(fraction.padEnd(6, "0").slice(0, 6)))
}

const floorDiv = (a: bigint, b: bigint): bigint => {
  const q = a / b
  return a % b !== 0n && (a < 0n) !== (b < 0n) ? q - 1n : q
}

import { fromIsoString, type Instant, plusSeconds } from "../../../core/shared/instant.js"

const DAY = /^\d{4}-\d{2}-\d{2}$/

/** A UTC date from a date input, as the instant its day starts (`days` later), or undefined. */
const dayStart = (text: string, days: number) => {
  const start = DAY.test(text) ? fromIsoString(`${text}T00:00:00Z`) : undefined
  return start === undefined ? undefined : plusSeconds(start, days * 86_400)
}

export interface DateRange {
  /** The start of the `from` day. */
  readonly since: Instant | undefined
  /** The end of the `to` day: both days are whole, as a person picking dates means them. */
  readonly until: Instant | undefined
  readonly problems: ReadonlyArray<string>
}

/** A list filter's `from` and `to` date inputs (empty: no bound) as the since and until the lists take. */
export const dateRange = (from: string, to: string): DateRange => {
  const since = from === "" ? undefined : dayStart(from, 0)
  const until = to === "" ? undefined : dayStart(to, 1)
  const problems: Array<string> = []
  if (from !== "" && since === undefined) problems.push("From must be a date such as 2030-01-31.")
  if (to !== "" && until === undefined) problems.push("To must be a date such as 2030-01-31.")
  return { since, until, problems }
}

const MINUTE = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2})$/

/** A UTC moment to the minute (`2030-01-31 09:30`, or with a T as ISO writes it), as an instant `seconds` later, or undefined. */
const minuteStart = (text: string, seconds: number) => {
  const match = MINUTE.exec(text)
  const start = match === null ? undefined : fromIsoString(`${match[1]}T${match[2]}:00Z`)
  return start === undefined ? undefined : plusSeconds(start, seconds)
}

/**
 * A list filter's `from` and `to` for a short-lived log, where the hour matters: each a UTC moment to
 * the minute (both minutes whole, `to` included) or a date alone (its whole day, as dateRange reads it).
 * Typed, not a datetime-local picker: that one shows the browser's local format for what is UTC here.
 */
export const timeRange = (from: string, to: string): DateRange => {
  const since = from === "" ? undefined : minuteStart(from, 0) ?? dayStart(from, 0)
  const until = to === "" ? undefined : minuteStart(to, 60) ?? dayStart(to, 1)
  const problems: Array<string> = []
  if (from !== "" && since === undefined) problems.push("From must be a UTC time such as 2030-01-31 09:30, or a date.")
  if (to !== "" && until === undefined) problems.push("To must be a UTC time such as 2030-01-31 17:00, or a date.")
  return { since, until, problems }
}

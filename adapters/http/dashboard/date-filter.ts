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

import * as Cause from "effect/Cause"
import * as HashMap from "effect/HashMap"
import * as LogLevel from "effect/LogLevel"
import { fieldsOf, type LogEvent, REQUEST_ID, sentenceOf } from "./log-line.js"

/**
 * Identical warnings (and errors) are one line per interval: an outage makes every request and
 * every background pass say the same thing, thousands of lines that bury the one that matters.
 * The first is written at once; the repeats within the interval are counted, and when it ends one
 * line says how many there were. Identical means everything but the request id and the stack
 * trace (which differ on every repeat): level, sentence, fields, the other annotations (two events'
 * failed attempts are two lines, each with its event id) and the words of the cause's errors (two
 * different defects are two lines).
 */
export interface RepeatLimiter {
  /** Whether the event is written now; false: it repeats one written within the interval, and is counted. */
  readonly admit: (event: LogEvent) => boolean
  /**
   * The count lines of intervals ended by `now` (epoch ms) that had repeats, and counting goes on for
   * a flood still going; `ending`: of every interval with repeats, ended or not (the logger closes).
   */
  readonly due: (now: number, ending?: boolean) => ReadonlyArray<LogEvent>
}

export const DEFAULT_REPEAT_INTERVAL_MILLIS = 10_000

/** Past this many different sentences in one interval, more are written as they come rather than tracked. */
const MAX_TRACKED = 1_000

interface Window {
  readonly event: LogEvent
  readonly since: number
  readonly repeats: number
}

const wordsOf = (error: unknown): string =>
  typeof error === "object" && error !== null && "message" in error && typeof error.message === "string" ? error.message : String(error)

const keyOf = (event: LogEvent): string => {
  const annotations = [...HashMap.toEntries(event.annotations)].filter(([key]) => key !== REQUEST_ID).sort(([a], [b]) => (a < b ? -1 : 1))
  const failures = [...Cause.failures(event.cause), ...Cause.defects(event.cause)].map(wordsOf)
  return JSON.stringify([event.level.label, sentenceOf(event.message), fieldsOf(event.message), annotations.map(([key, value]) => [key, String(value)]), failures])
}

const seconds = (millis: number) => `${Math.max(1, Math.round(millis / 1000))} s`

const times = (count: number) => (count === 1 ? "once more" : `${count} times`)

export const makeRepeatLimiter = (intervalMillis: number = DEFAULT_REPEAT_INTERVAL_MILLIS): RepeatLimiter => {
  const windows = new Map<string, Window>()
  return {
    admit: (event) => {
      if (LogLevel.lessThan(event.level, LogLevel.Warning)) return true
      const key = keyOf(event)
      const window = windows.get(key)
      if (window !== undefined) {
        windows.set(key, { ...window, repeats: window.repeats + 1 })
        return false
      }
      if (windows.size < MAX_TRACKED) windows.set(key, { event, since: event.at.getTime(), repeats: 0 })
      return true
    },
    due: (now, ending = false) => {
      const lines: Array<LogEvent> = []
      for (const [key, window] of windows) {
        if (now - window.since < intervalMillis && !(ending && window.repeats > 0)) continue
        if (window.repeats === 0) {
          // A quiet interval: the next occurrence is news again, written at once.
          windows.delete(key)
          continue
        }
        lines.push({
          level: window.event.level,
          message: `${sentenceOf(window.event.message)} (repeated ${times(window.repeats)} in the last ${seconds(now - window.since)})`,
          annotations: HashMap.empty(),
          cause: Cause.empty,
          at: new Date(now)
        })
        // Still flooding, maybe: the next interval is counted too, and said in one line if it repeats.
        windows.set(key, { event: window.event, since: now, repeats: 0 })
      }
      return lines
    }
  }
}

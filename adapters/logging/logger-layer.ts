import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import { formatLine, type LogFormat } from "./log-line.js"
import { DEFAULT_REPEAT_INTERVAL_MILLIS, makeRepeatLimiter, type RepeatLimiter } from "./repeat-limiter.js"
import { writeStdoutLine } from "./stdout-lines.js"

export type LogLevelName = "debug" | "info" | "warn" | "error"

export const LOG_LEVELS: Readonly<Record<LogLevelName, LogLevel.LogLevel>> = {
  debug: LogLevel.Debug,
  info: LogLevel.Info,
  warn: LogLevel.Warning,
  error: LogLevel.Error
}

export interface LoggingConfig {
  readonly format: LogFormat
  readonly level: LogLevelName
  /** Where each finished line goes (default: standard output, a write per turn of the event loop). */
  readonly write?: (line: string) => void
  /** Identical warnings within this many milliseconds are one line and a count (default 10 s). */
  readonly repeatIntervalMillis?: number
}

/** A logger writing one line per event in the given format, repeats of a warning counted by `limiter`. */
export const lineLogger = (format: LogFormat, write: (line: string) => void, limiter: RepeatLimiter) =>
  Logger.make(({ annotations, cause, logLevel, message }) => {
    const event = { level: logLevel, message, annotations, cause, at: new Date() }
    if (limiter.admit(event)) write(formatLine(format, event))
  })

/**
 * Says the counts of repeated warnings as their intervals end: machine time on a real timer (a
 * manual clock would never end one), unref'd so it keeps no process alive; the last counts are
 * said when the logger closes.
 */
const countLines = (format: LogFormat, write: (line: string) => void, limiter: RepeatLimiter, intervalMillis: number) => {
  const say = (ending: boolean) => {
    for (const event of limiter.due(Date.now(), ending)) write(formatLine(format, event))
  }
  return Effect.acquireRelease(
    Effect.sync(() => setInterval(() => say(false), Math.min(intervalMillis, 1_000)).unref()),
    (timer) => Effect.sync(() => {
      clearInterval(timer)
      say(true)
    })
  )
}

/**
 * Replaces Effect's default logger for everything built under this layer, and sets the minimum level.
 * Provided outermost by a host, so start-up, requests, background jobs and shutdown all use it.
 */
export const layer = (config: LoggingConfig): Layer.Layer<never> =>
  Layer.unwrapScoped(Effect.gen(function*() {
    const write = config.write ?? writeStdoutLine
    const intervalMillis = config.repeatIntervalMillis ?? DEFAULT_REPEAT_INTERVAL_MILLIS
    const limiter = makeRepeatLimiter(intervalMillis)
    yield* countLines(config.format, write, limiter, intervalMillis)
    return Layer.merge(
      Logger.replace(Logger.defaultLogger, lineLogger(config.format, write, limiter)),
      Logger.minimumLogLevel(LOG_LEVELS[config.level])
    )
  }))

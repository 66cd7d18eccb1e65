import * as Layer from "effect/Layer"
import * as Logger from "effect/Logger"
import * as LogLevel from "effect/LogLevel"
import { formatLine, type LogFormat } from "./log-line.js"

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
  /** Where each finished line goes (default: standard output). */
  readonly write?: (line: string) => void
}

const stdout = (line: string) => {
  process.stdout.write(`${line}\n`)
}

/** A logger writing one line per event in the given format. */
export const lineLogger = (format: LogFormat, write: (line: string) => void = stdout) =>
  Logger.make(({ annotations, cause, logLevel, message }) => {
    write(formatLine(format, { level: logLevel, message, annotations, cause, at: new Date() }))
  })

/**
 * Replaces Effect's default logger for everything built under this layer, and sets the minimum level.
 * Provided outermost by a host, so start-up, requests, background jobs and shutdown all use it.
 */
export const layer = (config: LoggingConfig): Layer.Layer<never> =>
  Layer.merge(
    Logger.replace(Logger.defaultLogger, lineLogger(config.format, config.write)),
    Logger.minimumLogLevel(LOG_LEVELS[config.level])
  )

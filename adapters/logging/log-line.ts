import * as Cause from "effect/Cause"
import * as HashMap from "effect/HashMap"
import type * as LogLevel from "effect/LogLevel"

/**
 * One log event as one line of text. A log call's message parts follow one convention: strings are
 * the sentence a person reads, a plain object holds fields for machines (`Effect.log("POST /x 200
 * 3ms", { status: 200 })`). Annotations (`request_id`, `event_id`) are shown in both formats.
 */
export type LogFormat = "human" | "json"

export interface LogEvent {
  readonly level: LogLevel.LogLevel
  readonly message: unknown
  readonly annotations: HashMap.HashMap<string, unknown>
  readonly cause: Cause.Cause<unknown>
  /** Wall-clock time: business time (the manual clock) would misdate the logs. */
  readonly at: Date
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && Object.getPrototypeOf(value) === Object.prototype

const textOf = (value: unknown): string => {
  if (typeof value === "string") return value
  if (value instanceof Error) return value.message
  try {
    return JSON.stringify(value) ?? String(value)
  } catch {
    return String(value)
  }
}

const partsOf = (message: unknown): ReadonlyArray<unknown> => (Array.isArray(message) ? message : [message])

/** The sentence a person reads: the message's string parts, without its fields. */
export const sentenceOf = (message: unknown): string =>
  partsOf(message).filter((part) => !isPlainObject(part)).map(textOf).join(" ")

/** The fields for machines: the message's plain-object parts, merged. */
export const fieldsOf = (message: unknown): Record<string, unknown> =>
  Object.assign({}, ...partsOf(message).filter(isPlainObject)) as Record<string, unknown>

/** The annotation every line written while a request runs carries. */
export const REQUEST_ID = "request_id"

/** Short names for the human line, where a column has to stay narrow. */
const humanKey: Record<string, string> = { [REQUEST_ID]: "req" }

/** A value that stays one token: quoted when it holds spaces, quotes or line breaks. */
const humanValue = (value: unknown): string => {
  const text = textOf(value)
  return /^[^\s"=]+$/.test(text) ? text : JSON.stringify(text)
}

export const humanLine = (event: LogEvent): string => {
  const sentence = sentenceOf(event.message)
  const annotations = [...HashMap.toEntries(event.annotations)].map(([key, value]) => ` ${humanKey[key] ?? key}=${humanValue(value)}`)
  const line = `${event.at.toISOString()} ${event.level.label.padEnd(5)} ${sentence}${annotations.join("")}`
  // A defect's trace is what an operator needs to act on it; it follows its line, indented.
  if (Cause.isEmpty(event.cause)) return line
  return `${line}\n${Cause.pretty(event.cause).split("\n").map((text) => `    ${text}`).join("\n")}`
}

export const jsonLine = (event: LogEvent): string => {
  const fields = fieldsOf(event.message)
  return JSON.stringify({
    time: event.at.toISOString(),
    level: event.level.label,
    message: sentenceOf(event.message),
    ...fields,
    ...Object.fromEntries(HashMap.toEntries(event.annotations)),
    ...(Cause.isEmpty(event.cause) ? {} : { cause: Cause.pretty(event.cause) })
  })
}

export const formatLine = (format: LogFormat, event: LogEvent): string =>
  format === "json" ? jsonLine(event) : humanLine(event)

import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as HashMap from "effect/HashMap"
import * as LogLevel from "effect/LogLevel"
import { describe, expect, it } from "vitest"
import type { LogEvent } from "./log-line.js"
import * as Logging from "./logger-layer.js"
import { makeRepeatLimiter } from "./repeat-limiter.js"

const T0 = Date.parse("2026-11-27T10:00:00.000Z")

const warning = (sentence: string, atMillis: number, requestId = "r1"): LogEvent => ({
  level: LogLevel.Warning,
  message: sentence,
  annotations: HashMap.make(["request_id", requestId]),
  cause: Cause.empty,
  at: new Date(atMillis)
})

const STORE_DOWN = "store unavailable; answered 503: connect ECONNREFUSED 127.0.0.1:5432"

describe("repeated identical warnings", () => {
  it("write the first at once, count the rest, and say the count in one line when the interval ends", () => {
    const limiter = makeRepeatLimiter(10_000)
    const admitted = Array.from({ length: 812 }, (_, i) => limiter.admit(warning(STORE_DOWN, T0 + i, `r${i}`)))
    expect(admitted.filter(Boolean)).toHaveLength(1)
    expect(admitted[0]).toBe(true)
    expect(limiter.due(T0 + 9_999)).toEqual([])
    const [count, ...more] = limiter.due(T0 + 10_000)
    expect(more).toEqual([])
    expect(count!.level).toBe(LogLevel.Warning)
    expect(count!.message).toBe(`${STORE_DOWN} (repeated 811 times in the last 10 s)`)
    expect(count!.at).toEqual(new Date(T0 + 10_000))
  })

  it("a flood still going is one count line per interval; after a quiet interval the next one is written at once", () => {
    const limiter = makeRepeatLimiter(10_000)
    expect(limiter.admit(warning(STORE_DOWN, T0))).toBe(true)
    expect(limiter.admit(warning(STORE_DOWN, T0 + 5_000))).toBe(false)
    expect(limiter.due(T0 + 10_000).map((event) => event.message)).toEqual([`${STORE_DOWN} (repeated once more in the last 10 s)`])
    expect(limiter.admit(warning(STORE_DOWN, T0 + 12_000))).toBe(false)
    expect(limiter.admit(warning(STORE_DOWN, T0 + 13_000))).toBe(false)
    expect(limiter.due(T0 + 20_000).map((event) => event.message)).toEqual([`${STORE_DOWN} (repeated 2 times in the last 10 s)`])
    expect(limiter.due(T0 + 30_000)).toEqual([])
    expect(limiter.admit(warning(STORE_DOWN, T0 + 31_000))).toBe(true)
  })

  it("the same sentence with a different failure is news; the same failure with another trace is a repeat", () => {
    const limiter = makeRepeatLimiter(10_000)
    const failed = (error: Error, atMillis: number): LogEvent =>
      ({ ...warning("request failed unexpectedly", atMillis), level: LogLevel.Error, cause: Cause.die(error) })
    expect(limiter.admit(failed(new Error("boom"), T0))).toBe(true)
    expect(limiter.admit(failed(new Error("boom"), T0 + 1))).toBe(false)
    expect(limiter.admit(failed(new Error("another defect"), T0 + 2))).toBe(true)
  })

  it("another subject is news: two events' failed attempts are two lines, each with its event id", () => {
    const limiter = makeRepeatLimiter(10_000)
    const attempt = (eventId: string): LogEvent => ({
      ...warning("webhook attempt 1 failed: HTTP 500", T0),
      message: ["webhook attempt 1 failed: HTTP 500", { attempt: 1, target: "https://shop.example" }],
      annotations: HashMap.make(["event_id", eventId])
    })
    expect([limiter.admit(attempt("evt_1")), limiter.admit(attempt("evt_2")), limiter.admit(attempt("evt_1"))]).toEqual([true, true, false])
  })

  it("different sentences, levels below warning and a closing logger's unfinished interval", () => {
    const limiter = makeRepeatLimiter(10_000)
    expect(limiter.admit(warning(STORE_DOWN, T0))).toBe(true)
    expect(limiter.admit(warning("webhook dispatch pass failed; retrying", T0))).toBe(true)
    const info: LogEvent = { ...warning("POST /api/v1/initiate-payment 503 2ms", T0), level: LogLevel.Info }
    expect([limiter.admit(info), limiter.admit(info)]).toEqual([true, true])
    expect(limiter.admit({ ...warning(STORE_DOWN, T0), level: LogLevel.Error })).toBe(true)
    expect(limiter.admit(warning(STORE_DOWN, T0 + 1_000))).toBe(false)
    expect(limiter.due(T0 + 3_000)).toEqual([])
    expect(limiter.due(T0 + 3_000, true).map((event) => event.message)).toEqual([`${STORE_DOWN} (repeated once more in the last 3 s)`])
  })

  it("go through the one logger: 500 identical warnings from requests are two lines", async () => {
    const lines: Array<string> = []
    const program = Effect.forEach(Array.from({ length: 500 }, (_, i) => i), (i) =>
      Effect.logWarning(STORE_DOWN).pipe(Effect.annotateLogs("request_id", `req-${i}`)), { discard: true })
    await Effect.runPromise(Effect.scoped(Effect.provide(program, Logging.layer({ format: "human", level: "info", write: (line) => lines.push(line) }))))
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/WARN {2}store unavailable; answered 503: connect ECONNREFUSED 127\.0\.0\.1:5432 req=req-0$/)
    expect(lines[1]).toMatch(/WARN {2}store unavailable; answered 503: connect ECONNREFUSED 127\.0\.0\.1:5432 \(repeated 499 times in the last \d+ s\)$/)
  })
})

import { Cause, HashMap, LogLevel } from "effect"
import { describe, expect, it } from "vitest"
import { humanLine, jsonLine, type LogEvent } from "./log-line.js"

const at = new Date("2026-11-23T07:00:00.000Z")

const event = (overrides: Partial<LogEvent>): LogEvent => ({
  level: LogLevel.Info,
  message: ["POST /api/v1/initiate-payment 200 12ms", { method: "POST", status: 200 }],
  annotations: HashMap.make(["request_id", "abc-1"]),
  cause: Cause.empty,
  at,
  ...overrides
})

describe("log lines", () => {
  it("reads as one sentence for a person: time, level, what happened, request id", () => {
    expect(humanLine(event({}))).toBe("2026-11-23T07:00:00.000Z INFO  POST /api/v1/initiate-payment 200 12ms req=abc-1")
  })

  it("keeps each annotation one token, quoting values with spaces or line breaks", () => {
    const line = humanLine(event({ message: "webhook attempt 1 failed", annotations: HashMap.make(["event_id", "e 1\nforged line"]) }))
    expect(line).toBe('2026-11-23T07:00:00.000Z INFO  webhook attempt 1 failed event_id="e 1\\nforged line"')
    expect(line.split("\n")).toHaveLength(1)
  })

  it("puts a defect's trace under its line", () => {
    const line = humanLine(event({ level: LogLevel.Error, message: "request failed unexpectedly", annotations: HashMap.empty(), cause: Cause.die(new Error("boom")) }))
    expect(line.split("\n")[0]).toBe("2026-11-23T07:00:00.000Z ERROR request failed unexpectedly")
    expect(line).toContain("boom")
  })

  it("writes JSON with the sentence, the fields and the annotations as keys", () => {
    expect(JSON.parse(jsonLine(event({})))).toEqual({
      time: "2026-11-23T07:00:00.000Z",
      level: "INFO",
      message: "POST /api/v1/initiate-payment 200 12ms",
      method: "POST",
      status: 200,
      request_id: "abc-1"
    })
  })
})

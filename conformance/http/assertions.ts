import { expect } from "vitest"
import type { HttpResult } from "./signing.js"

/** ISO 8601 UTC with exactly six fraction digits and `Z` (spec 7.3, 2.3). */
export const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

export const INVALID_CREDENTIALS = "Invalid API credentials."

export interface ExpectedError {
  readonly status: number
  /** Absent when the contract fixes no code (an undocumented extra): then any UPPER_SNAKE code is accepted. */
  readonly errorCode?: string
  /** Exact message, when the contract fixes it. */
  readonly message?: string
  /** Fields that must appear in `errors`, each with at least one message. */
  readonly fields?: ReadonlyArray<string>
  /** The exact `errors` object, when the contract fixes it. */
  readonly errors?: Readonly<Record<string, ReadonlyArray<string>>>
}

/** A JSON response body: the Content-Type says so and the text parses. */
export const expectJson = (response: HttpResult): any => {
  expect(response.headers["content-type"] ?? "").toMatch(/^application\/json\b/)
  return response.json()
}

/** The 7.3 error body, exactly its five fields and the request's id, with the given status, code and details. */
export const expectError = (response: HttpResult, expected: ExpectedError): any => {
  const context = `${response.status} ${response.text}`
  expect(response.status, context).toBe(expected.status)
  const body = expectJson(response)
  expect(Object.keys(body).sort(), context).toEqual(["error_code", "errors", "message", "request_id", "success", "timestamp"])
  // A replay repeats the first answer whole, so its request_id is the first request's.
  if (response.headers["idempotent-replayed"] === undefined) expect(body.request_id, context).toBe(response.headers["x-request-id"])
  expect(body.success, context).toBe(false)
  expect(typeof body.message, context).toBe("string")
  expect(body.message.length, context).toBeGreaterThan(0)
  if (expected.errorCode !== undefined) expect(body.error_code, context).toBe(expected.errorCode)
  else expect(body.error_code, context).toMatch(/^[A-Z][A-Z_]*[A-Z]$/)
  expect(body.timestamp, context).toMatch(ISO_MICROS)
  expect(typeof body.errors === "object" && body.errors !== null && !Array.isArray(body.errors), context).toBe(true)
  for (const [field, messages] of Object.entries(body.errors as Record<string, unknown>)) {
    expect(Array.isArray(messages) && messages.length > 0, `${context}: errors.${field}`).toBe(true)
    for (const message of messages as Array<unknown>) expect(typeof message, `${context}: errors.${field}`).toBe("string")
  }
  if (expected.message !== undefined) expect(body.message, context).toBe(expected.message)
  for (const field of expected.fields ?? []) expect(Object.keys(body.errors), context).toContain(field)
  if (expected.errors !== undefined) expect(body.errors, context).toEqual(expected.errors)
  return body
}

/** A refused credential: 401 INVALID_CREDENTIALS, `Invalid API credentials.`, nothing else said. */
export const expectInvalidCredentials = (response: HttpResult, errors: Readonly<Record<string, ReadonlyArray<string>>> = {}) =>
  expectError(response, { status: 401, errorCode: "INVALID_CREDENTIALS", message: INVALID_CREDENTIALS, errors })

/** A 401 about one header (X-Timestamp or X-Signature), with its own message. */
export const expectHeaderRefused = (response: HttpResult, header: "X-Timestamp" | "X-Signature", message: string) =>
  expectError(response, { status: 401, errorCode: "INVALID_CREDENTIALS", message, errors: { [header]: [message] } })

export const expectOk = (response: HttpResult, status = 200): any => {
  expect(response.status, response.text).toBe(status)
  return expectJson(response)
}

export const TIMESTAMP_MISSING = "The X-Timestamp header is required."
export const TIMESTAMP_MALFORMED = "The X-Timestamp header must be Unix time in seconds."
export const TIMESTAMP_STALE = "The request timestamp is outside the allowed window."
export const SIGNATURE_MISSING = "The X-Signature header is required."
export const SIGNATURE_INVALID = "The request signature is invalid."

import { SqlError } from "@effect/sql/SqlError"
import { Effect, Exit } from "effect"
import { describe, expect, it } from "vitest"
import { describeError } from "../http/response/error-table.js"
import { orStorageError, toStorageError } from "./storage-errors.js"
import { isDiskFull, isStoreOutage } from "./store-outage.js"

const coded = (code: string, message = "driver failure") => Object.assign(new Error(message), { code })
const sqlError = (cause: unknown) => new SqlError({ message: "Failed to execute statement", cause })

describe("a store outage is told apart from a store fault", () => {
  it.each([
    ["connection refused", coded("ECONNREFUSED")],
    ["connection reset", coded("ECONNRESET")],
    ["no such host", coded("ENOTFOUND")],
    ["PostgreSQL connection exception (class 08)", coded("08006")],
    ["PostgreSQL admin shutdown (57P01)", coded("57P01")],
    ["PostgreSQL crash shutdown (57P02)", coded("57P02")],
    ["PostgreSQL starting up (57P03)", coded("57P03")],
    ["PostgreSQL too many connections (53300)", coded("53300")],
    ["SQLite busy", coded("SQLITE_BUSY", "database is locked")],
    ["SQLite busy snapshot", coded("SQLITE_BUSY_SNAPSHOT")],
    ["SQLite table locked", coded("SQLITE_LOCKED")],
    ["SQLite disk full", coded("SQLITE_FULL", "database or disk is full")],
    ["PostgreSQL disk full (53100)", coded("53100", "could not extend file \"base/16384/16397\": No space left on device")],
    ["node-postgres socket closed", new Error("Connection terminated unexpectedly")],
    ["node-postgres connect timeout", new Error("timeout exceeded when trying to connect")],
    ["a refused connect to every address", new AggregateError([coded("ECONNREFUSED"), coded("ECONNREFUSED")])],
    ["a cause wrapping the socket's error", new Error("Connection terminated due to connection timeout", { cause: coded("ETIMEDOUT") })]
  ])("%s is an outage: 503 with Retry-After in the 7.3 body", (_, cause) => {
    expect(isStoreOutage(cause)).toBe(true)
    const error = toStorageError(sqlError(cause))
    expect(error.unavailable).toBe(true)
    expect(describeError(error)).toEqual({
      status: 503,
      message: "The service is temporarily unavailable; retry shortly.",
      errorCode: "SERVICE_UNAVAILABLE",
      headers: { "retry-after": "2" }
    })
  })

  it.each([
    ["a unique violation (23505)", coded("23505", "duplicate key value violates unique constraint")],
    ["a serialization failure (40001)", coded("40001")],
    ["a syntax error (42601)", coded("42601")],
    ["SQLite constraint", coded("SQLITE_CONSTRAINT_UNIQUE")],
    ["a plain error", new Error("something else")],
    ["no cause at all", undefined]
  ])("%s stays a 500", (_, cause) => {
    expect(isStoreOutage(cause)).toBe(false)
    const error = toStorageError(sqlError(cause))
    expect(error.unavailable).toBeUndefined()
    expect(describeError(error).status).toBe(500)
  })

  it.each([
    ["SQLite", coded("SQLITE_FULL", "database or disk is full")],
    ["PostgreSQL", coded("53100", "could not extend file: No space left on device")]
  ])("a full disk on %s is named as such for the operator's log", (_, cause) => {
    expect(isDiskFull(cause)).toBe(true)
    expect(toStorageError(sqlError(cause)).message).toBe(`Failed to execute statement (disk is full: ${cause.message})`)
    expect(isDiskFull(coded("ECONNREFUSED"))).toBe(false)
  })

  it("a COMMIT lost to an outage (a defect in @effect/sql) becomes the same StorageError; other defects stay defects", () => {
    const outage = Effect.runSyncExit(orStorageError(Effect.die(sqlError(coded("57P01")))))
    expect(Exit.isFailure(outage) && outage.cause._tag === "Fail" && outage.cause.error.unavailable).toBe(true)
    const fault = Effect.runSyncExit(orStorageError(Effect.die(sqlError(coded("23505")))))
    expect(Exit.isFailure(fault) && fault.cause._tag).toBe("Die")
  })
})

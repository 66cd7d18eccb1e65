/**
 * Whether a driver failure means the store is out (unreachable, gone mid-call, shutting down, too
 * busy, out of disk space) rather than faulty. An outage answers 503 with Retry-After, because the
 * same call may work a moment later; anything else (a constraint, bad SQL) stays a 500. Decided from
 * codes, never from the free text, except for the node-postgres errors that carry no code at all.
 */

/** Socket failures: nothing listens, the peer went away, or no route to it. */
const NETWORK_CODES = new Set([
  "ECONNREFUSED", "ECONNRESET", "ECONNABORTED", "EPIPE", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENETDOWN",
  "ENOTFOUND", "EAI_AGAIN", "ENOTCONN"
])

/**
 * PostgreSQL SQLSTATEs of an outage: class 08 (connection exception), 57P01 admin_shutdown, 57P02
 * crash_shutdown, 57P03 cannot_connect_now (starting up or recovering), 53300 too_many_connections.
 */
const isPostgresOutage = (code: string): boolean =>
  /^08[0-9A-Z]{3}$/.test(code) || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300"

/**
 * Out of disk space: SQLite's SQLITE_FULL and PostgreSQL's 53100 disk_full. Nothing was written (the
 * statement or the commit failed, and the transaction is rolled back), and a write may take once
 * space is freed: an outage, not a fault, which the log names as such for the operator.
 */
const DISK_FULL_CODES = new Set(["SQLITE_FULL", "53100"])

/** SQLite: another connection holds the lock past busy_timeout (SQLITE_BUSY_*), or a table is locked. */
const isSqliteOutage = (code: string): boolean =>
  code === "SQLITE_BUSY" || code.startsWith("SQLITE_BUSY_") || code === "SQLITE_LOCKED" || code.startsWith("SQLITE_LOCKED_")

/**
 * node-postgres reports a socket closed under it, a client it has given up on, and a connect that
 * timed out as plain Errors without a code: these messages are its own, fixed in its source.
 */
const PG_CONNECTION_MESSAGES = [
  "Connection terminated",
  "Client has encountered a connection error and is not queryable",
  "timeout exceeded when trying to connect",
  "Client was closed and is not queryable"
]

const codeOf = (error: object): string | undefined =>
  "code" in error && typeof error.code === "string" ? error.code : undefined

const messageOf = (error: object): string =>
  "message" in error && typeof error.message === "string" ? error.message : ""

const isOutageItself = (error: object): boolean => {
  const code = codeOf(error)
  if (code !== undefined && (NETWORK_CODES.has(code) || isPostgresOutage(code) || isSqliteOutage(code) || DISK_FULL_CODES.has(code))) return true
  const message = messageOf(error)
  return PG_CONNECTION_MESSAGES.some((known) => message.startsWith(known))
}

/** Looks through an error's causes, as isStoreOutage does, for one found by `test`. */
const someCause = (error: unknown, test: (error: object) => boolean, depth = 0): boolean => {
  if (typeof error !== "object" || error === null || depth > 5) return false
  if (test(error)) return true
  if ("errors" in error && Array.isArray(error.errors) && error.errors.some((inner) => someCause(inner, test, depth + 1))) return true
  return "cause" in error && someCause(error.cause, test, depth + 1)
}

/** Whether the store refused a write for want of disk space (one kind of outage). */
export const isDiskFull = (error: unknown): boolean =>
  someCause(error, (inner) => {
    const code = codeOf(inner)
    return code !== undefined && DISK_FULL_CODES.has(code)
  })

/**
 * Looks through the chain of causes (an SqlError wraps the driver's error, which may wrap the
 * socket's) and an AggregateError's members (a connect tried on several addresses), a few deep.
 */
export const isStoreOutage = (error: unknown): boolean => someCause(error, isOutageItself)

import * as PgClient from "@effect/sql-pg/PgClient"
import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import * as Statement from "@effect/sql/Statement"
import * as Cause from "effect/Cause"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import { currentTransactionRun, type TransactionRun } from "../../core/shared/transaction-run.js"

/**
 * What may be run again. A lone statement: always (it failed whole, nothing of it happened). A
 * transaction: only a run that did nothing but database work. A run is database work unless a step
 * said otherwise (`actsOutsideTheDatabase`, core/shared/transaction-run.ts): reaching a gateway's
 * callee says so, since every gateway call starts there, so no refund, charge, evidence or setup is
 * ever sent twice; such a run's lost race is its answer (a StorageError, which the caller may send
 * again under its idempotency key). Mail and webhooks leave through outboxes written in the
 * transaction, so they are database work. Marking the one place money leaves, rather than asking
 * every caller to mark its transaction pure, keeps the retry on every transaction that needs it
 * (the constrained conformance suite's races) with no change at the call sites. What else a body does
 * in memory is kept re-runnable by the audit in docs/scaling.md: metrics counted after the commit,
 * cache invalidations idempotent, ids and times drawn again in each run.
 *
 * 40001 (serialization_failure) and 40P01 (deadlock_detected) mean "this transaction lost a race,
 * run it again": PostgreSQL at SERIALIZABLE or REPEATABLE READ, CockroachDB always and YugabyteDB
 * under load answer them, and each engine's documentation leaves the retry to the client. Any other
 * SQLSTATE is the transaction's own answer and is never retried.
 */
export const RETRYABLE_SQLSTATES: ReadonlySet<string> = new Set(["40001", "40P01"])

/**
 * Runs of one transaction at most: the first and up to this many minus one retries. Each round of
 * racers on one row lets at least one commit, so 30 covers the suite's 50-way races with room.
 */
export const MAX_RUNS = 30

/** The SQLSTATE somewhere in an error's chain of causes (StorageError -> SqlError -> driver error). */
export const sqlStateOf = (error: unknown): string | undefined => {
  for (let at = error, depth = 0; typeof at === "object" && at !== null && depth < 8; at = (at as { cause?: unknown }).cause, depth++) {
    const code = (at as { code?: unknown }).code
    if (typeof code === "string" && /^[0-9A-Z]{5}$/.test(code)) return code
  }
  return undefined
}

/** Failed or died of a retryable SQLSTATE (a refused COMMIT is a defect in @effect/sql). */
const lostARace = (cause: Cause.Cause<unknown>): boolean =>
  [...Cause.failures(cause), ...Cause.defects(cause)].some((error) => RETRYABLE_SQLSTATES.has(sqlStateOf(error) ?? ""))

/** A short jittered backoff, never above 50 ms, so the racers that lost do not meet again at once. */
const backoff = Schedule.exponential("2 millis", 1.5).pipe(
  Schedule.union(Schedule.spaced("50 millis")),
  Schedule.jittered,
  Schedule.intersect(Schedule.recurs(MAX_RUNS - 1))
)

/** `self` run again from its start, whole, while it loses a race, up to MAX_RUNS runs. */
export const retryLostRaces = <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.unsandbox(Effect.retry(Effect.sandbox(self), { schedule: backoff, while: lostARace }))

/**
 * An outermost transaction run again whole while it loses a race and its failed run stayed inside
 * the database. Each run gets a fresh TransactionRun, seen by every step (and fork) of that run.
 */
const retryTransaction = <A, E, R>(transaction: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.suspend(() => {
    let run: TransactionRun = { outsideTheDatabase: false }
    const attempt = Effect.suspend(() => {
      run = { outsideTheDatabase: false }
      return Effect.locally(Effect.sandbox(transaction), currentTransactionRun, run)
    })
    return Effect.unsandbox(Effect.retry(attempt, { schedule: backoff, while: (cause) => !run.outsideTheDatabase && lostARace(cause) }))
  })

/**
 * A lone statement, once sent, is waited for, even when its fiber is interrupted (a client that left,
 * say): interrupted, @effect/sql-pg would cancel it with `pg_cancel_backend` sent through the same
 * pool, which under load has no connection free but the ones the interrupted statements hold. Each
 * cancel then waited its 5 s timeout, and cancels left queued in the pool ran later against whatever
 * those connections were running by then: a host under load whose clients timed out stopped
 * answering altogether. The kit's lone statements are short; its long reads stream elsewhere.
 */
const sent = <A, E, R>(statement: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> => Effect.uninterruptible(retryLostRaces(statement))

/** A lone statement is its own transaction: retrying the statement is retrying the transaction. */
const retryingConnection = (conn: Connection): Connection => ({
  execute: (sql, params, transformRows) => sent(conn.execute(sql, params, transformRows)),
  executeRaw: (sql, params) => sent(conn.executeRaw(sql, params)),
  executeValues: (sql, params) => sent(conn.executeValues(sql, params)),
  executeUnprepared: (sql, params, transformRows) => sent(conn.executeUnprepared(sql, params, transformRows)),
  executeStream: (sql, params, transformRows) => conn.executeStream(sql, params, transformRows)
})

/**
 * The kit's PostgreSQL client with lost races retried: an outermost transaction that stayed inside
 * the database is run again whole (its effect from the start: a nested one is a savepoint of it and leaves the retry to it), and a
 * statement outside any transaction is sent again. Inside a transaction nothing is retried on its
 * own, since the transaction it belonged to is already aborted.
 */
export const withRetriedRaces = Layer.effect(
  SqlClient.SqlClient,
  Effect.gen(function*() {
    const pg = yield* PgClient.PgClient
    const getConnection = Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), Option.match({
      onNone: () => Effect.map(pg.reserve, retryingConnection),
      onSome: ([conn]) => Effect.succeed(conn)
    }))
    const statements = Statement.make(getConnection, PgClient.makeCompiler(), [], undefined)
    const withTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (open) =>
        Option.isSome(open) ? pg.withTransaction(effect) : retryTransaction(pg.withTransaction(effect)))
    const client: SqlClient.SqlClient = Object.assign((...args: Parameters<typeof statements>) => statements(...args), pg, statements, { withTransaction })
    return Object.assign(client, { safe: client })
  })
)

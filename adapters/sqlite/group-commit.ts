import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as ExecutionStrategy from "effect/ExecutionStrategy"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Scope from "effect/Scope"

/**
 * How many transactions one durable commit may carry: a statement outside them that needs the one
 * connection (a write, or a read where there is no direct reader) waits while a batch holds it.
 */
export const MAX_BATCH = 64

/**
 * How long a batch stays open for company after its first transaction began: about one durable
 * commit's cost. Machine time, on a real timer: a manual or test clock must not hold a commit back.
 */
const GATHER_MILLIS = 1

const gatherWindow = Effect.async<void>((resume) => {
  const timer = setTimeout(() => resume(Effect.void), GATHER_MILLIS)
  return Effect.sync(() => clearTimeout(timer))
})

/** The open transaction on the reserved connection, and the transactions whose work it holds. */
interface Batch {
  readonly conn: Connection
  /** Holds the reserved connection: closed once the batch has committed or rolled back. */
  readonly scope: Scope.CloseableScope
  /** How the commit went, for every transaction whose work the open transaction holds. */
  committed: Deferred.Deferred<void, SqlError>
  held: number
}

/**
 * Group commit on SQLite: concurrent transactions are joined into one durable commit instead of
 * one fsync each. The first transaction to find no batch open reserves the one connection and opens
 * a transaction; it and every transaction after it take their turn on the connection (one at a time,
 * each inside its own savepoint, so a failing one rolls back alone, as it would have on its own),
 * until the gather window has passed and the turns already waiting have run, or the batch is full;
 * then it commits once and every transaction of the batch answers, none before the commit.
 * Durability is unchanged: nothing is answered before the commit that holds it, and
 * synchronous=FULL still syncs that commit. Each transaction runs its own work on its own fiber:
 * the turn is a lock, not a hand-over to a committer (which cost each transaction three Deferreds,
 * a queue and two fiber switches more).
 *
 * Nested transactions (a savepoint inside a transaction) are left to the client as before.
 */
export const layer = Layer.scoped(
  SqlClient.SqlClient,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const layerScope = yield* Effect.scope
    // The turn on the one connection: the batch's opening, each transaction's work and the commit.
    const turn = yield* Effect.makeSemaphore(1)
    let open: Batch | undefined

    /**
     * After a failed statement SQLite may have rolled back the whole transaction (SQLITE_FULL,
     * SQLITE_IOERR, SQLITE_NOMEM, SQLITE_BUSY do), not just the savepoint: then a BEGIN is accepted,
     * where inside a transaction it is refused. Accepted, it opens the transaction the rest of the
     * batch goes on in.
     */
    const rolledBackUnder = (conn: Connection) =>
      Effect.map(Effect.exit(conn.executeUnprepared("BEGIN", [], undefined)), Exit.isSuccess)

    /** Commits the batch if it is still the open one; called holding the turn. */
    const commit = (batch: Batch) =>
      Effect.gen(function*() {
        if (open !== batch) return
        open = undefined
        const outcome = yield* Effect.exit(batch.conn.executeUnprepared("COMMIT", [], undefined)).pipe(
          Effect.tap((exit) => (Exit.isFailure(exit) ? Effect.ignore(batch.conn.executeUnprepared("ROLLBACK", [], undefined)) : Effect.void))
        )
        yield* Scope.close(batch.scope, Exit.void)
        yield* Deferred.done(batch.committed, Exit.asVoid(outcome))
      })

    /** Reserves the connection and opens a batch; called holding the turn. Fails as BEGIN did. */
    const begin = Effect.gen(function*() {
      const scope = yield* Scope.fork(layerScope, ExecutionStrategy.sequential)
      const opened = yield* Effect.exit(Effect.flatMap(Scope.extend(sql.reserve, scope), (conn) =>
        Effect.as(conn.executeUnprepared("BEGIN", [], undefined), conn)))
      if (Exit.isFailure(opened)) {
        yield* Scope.close(scope, Exit.void)
        return yield* Effect.failCause(opened.cause)
      }
      const batch: Batch = { conn: opened.value, scope, committed: yield* Deferred.make<void, SqlError>(), held: 0 }
      open = batch
      // Once the window has passed, the commit takes its turn behind the transactions already waiting.
      yield* Effect.forkIn(Effect.zipRight(gatherWindow, turn.withPermits(1)(commit(batch))), layerScope)
      return batch
    })

    // At shutdown, an open batch still commits: its transactions are waiting for their answers.
    yield* Effect.addFinalizer(() => Effect.suspend(() => (open === undefined ? Effect.void : turn.withPermits(1)(commit(open)))))

    const joinBatch = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.gen(function*() {
          yield* turn.take(1)
          const batch = open ?? (yield* Effect.onError(begin, () => turn.release(1)))
          const committed = batch.committed
          // What the work itself failed with, before a rollback of a savepoint SQLite no longer has
          // (a defect of the client's) could stand in for it.
          let failure: unknown = undefined
          const watched = Effect.tapErrorCause(effect, (cause) => Effect.sync(() => {
            failure = Cause.squash(cause)
          }))
          // Depth 0 is the batch's transaction, so the client makes this one a savepoint of it.
          const own = yield* Effect.exit(restore(sql.withTransaction(watched)).pipe(
            Effect.provideService(SqlClient.TransactionConnection, [batch.conn, 0] as const)
          ))
          batch.held += 1
          if (Exit.isFailure(own) && (yield* rolledBackUnder(batch.conn))) {
            // Their work is gone with it: each is told, in the words of the failure that took it (a
            // full disk is an outage), and none is answered by a later commit. The BEGIN just
            // accepted opened the transaction the batch goes on in.
            const lost = new SqlError({ message: "SQLite rolled the transaction back after a statement failed", cause: failure ?? Cause.squash(own.cause) })
            yield* Deferred.fail(committed, lost)
            batch.committed = yield* Deferred.make<void, SqlError>()
            batch.held = 0
          }
          if (batch.held >= MAX_BATCH) yield* commit(batch)
          yield* turn.release(1)
          yield* Deferred.await(committed)
          return yield* own
        })
      )

    const withTransaction = <A, E, R>(effect: Effect.Effect<A, E, R>): Effect.Effect<A, E | SqlError, R> =>
      Effect.flatMap(Effect.serviceOption(SqlClient.TransactionConnection), (open) =>
        Option.isSome(open) ? sql.withTransaction(effect) : joinBatch(effect))

    // The client is a tagged-template function carrying its methods: a copy with one method replaced.
    const grouped: SqlClient.SqlClient = Object.assign((...args: Parameters<typeof sql>) => sql(...args), sql, { withTransaction })
    return Object.assign(grouped, { safe: grouped })
  })
)

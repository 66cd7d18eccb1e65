import * as SqlClient from "@effect/sql/SqlClient"
import type { Connection } from "@effect/sql/SqlConnection"
import { SqlError } from "@effect/sql/SqlError"
import * as Cause from "effect/Cause"
import * as Deferred from "effect/Deferred"
import * as Effect from "effect/Effect"
import * as Exit from "effect/Exit"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"

/**
 * How many transactions one durable commit may carry: a statement outside them that needs the one
 * connection (a write, or a read where there is no direct reader) waits while a batch holds it.
 */
export const MAX_BATCH = 64

/**
 * How long a batch waits for company before it begins: about one durable commit's cost. Machine
 * time, on a real timer: a manual or test clock must not hold a commit back.
 */
const GATHER_MILLIS = 1

const gatherWindow = Effect.async<void>((resume) => {
  const timer = setTimeout(() => resume(Effect.void), GATHER_MILLIS)
  return Effect.sync(() => clearTimeout(timer))
})

interface Job {
  /** Handed the open connection when it is this transaction's turn to run. */
  readonly turn: Deferred.Deferred<Connection, SqlError>
  /** Completed by the transaction once its own work has ended: undefined if well, else what it failed with. */
  readonly done: Deferred.Deferred<{ readonly failure: unknown } | undefined>
  /** How the batch's commit went: the transaction answers only after it. */
  readonly committed: Deferred.Deferred<void, SqlError>
}

/**
 * Group commit on SQLite: concurrent transactions are joined into one durable commit instead of
 * one fsync each. A committer opens a transaction and gives each waiting transaction its turn on
 * the one connection, inside its own savepoint (so a failing one rolls back alone, as it would
 * have on its own), until none is waiting or the batch is full; then it commits once and every
 * transaction of the batch answers, none before the commit. Durability is unchanged: nothing is
 * answered before the commit that holds it, and synchronous=FULL still syncs that commit.
 *
 * Nested transactions (a savepoint inside a transaction) are left to the client as before.
 */
export const layer = Layer.scoped(
  SqlClient.SqlClient,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const waiting = yield* Queue.unbounded<Job>()

    /**
     * After a failed statement SQLite may have rolled back the whole transaction (SQLITE_FULL,
     * SQLITE_IOERR, SQLITE_NOMEM, SQLITE_BUSY do), not just the savepoint: then a BEGIN is accepted,
     * where inside a transaction it is refused. Accepted, it opens the transaction the rest of the
     * batch goes on in.
     */
    const rolledBackUnder = (conn: Connection) =>
      Effect.map(Effect.exit(conn.executeUnprepared("BEGIN", [], undefined)), Exit.isSuccess)

    const runBatch = (first: Job) =>
      Effect.scoped(Effect.gen(function*() {
        const conn = yield* sql.reserve
        const batch: Array<Job> = []
        // The transactions whose work the open transaction holds, and the commit will answer.
        let held: Array<Job> = []
        const began = yield* Effect.exit(conn.executeUnprepared("BEGIN", [], undefined))
        let next: Option.Option<Job> = Option.some(first)
        while (Option.isSome(next) && batch.length < MAX_BATCH) {
          const job = next.value
          batch.push(job)
          if (Exit.isSuccess(began)) {
            held.push(job)
            yield* Deferred.succeed(job.turn, conn)
            const ended = yield* Deferred.await(job.done)
            if (ended !== undefined && (yield* rolledBackUnder(conn))) {
              // Their work is gone with it: each is told, in the words of the failure that took it
              // (a full disk is an outage), and none is answered by a later commit.
              const lost = new SqlError({ message: "SQLite rolled the transaction back after a statement failed", cause: ended.failure })
              for (const gone of held) yield* Deferred.fail(gone.committed, lost)
              held = []
            }
          }
          next = batch.length < MAX_BATCH ? yield* Queue.poll(waiting) : Option.none()
        }
        const outcome = Exit.isFailure(began)
          ? began
          : yield* Effect.exit(conn.executeUnprepared("COMMIT", [], undefined)).pipe(
            Effect.tap((exit) => (Exit.isFailure(exit) ? Effect.ignore(conn.executeUnprepared("ROLLBACK", [], undefined)) : Effect.void))
          )
        const committed: Exit.Exit<void, SqlError> = Exit.asVoid(outcome)
        for (const job of Exit.isFailure(began) ? batch : held) yield* Deferred.done(job.committed, committed)
        // A transaction still waiting for its turn when the BEGIN failed is told at once.
        if (Exit.isFailure(began)) for (const job of batch) yield* Deferred.failCause(job.turn, began.cause)
      }))

    // A moment's wait after the first transaction arrives lets the others in flight join its commit.
    const gather = (first: Job) => Effect.as(gatherWindow, first)
    yield* Effect.forkScoped(Effect.forever(Queue.take(waiting).pipe(Effect.flatMap(gather), Effect.flatMap(runBatch))))

    const joinBatch = <A, E, R>(effect: Effect.Effect<A, E, R>) =>
      Effect.uninterruptibleMask((restore) =>
        Effect.gen(function*() {
          const job: Job = {
            turn: yield* Deferred.make<Connection, SqlError>(),
            done: yield* Deferred.make<{ readonly failure: unknown } | undefined>(),
            committed: yield* Deferred.make<void, SqlError>()
          }
          yield* Queue.offer(waiting, job)
          const conn = yield* Deferred.await(job.turn)
          // What the work itself failed with, before a rollback of a savepoint SQLite no longer has
          // (a defect of the client's) could stand in for it.
          let failure: unknown = undefined
          const watched = Effect.tapErrorCause(effect, (cause) => Effect.sync(() => {
            failure = Cause.squash(cause)
          }))
          // Depth 0 is the batch's transaction, so the client makes this one a savepoint of it.
          const own = yield* Effect.exit(restore(sql.withTransaction(watched)).pipe(
            Effect.provideService(SqlClient.TransactionConnection, [conn, 0] as const)
          ))
          yield* Deferred.succeed(job.done, Exit.isSuccess(own) ? undefined : { failure: failure ?? Cause.squash(own.cause) })
          yield* Deferred.await(job.committed)
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

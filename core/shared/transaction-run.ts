import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"

/**
 * One run of an outermost transaction. A store may run a transaction again from its start when the
 * database says it lost a race (PostgreSQL's 40001 and 40P01: adapters/postgres/serialization-retry.ts);
 * that is sound only while the run did nothing but database work. A mutable cell, not a FiberRef
 * value, so that a step in a forked fiber of the run still marks the run itself.
 */
export interface TransactionRun {
  outsideTheDatabase: boolean
}

/** The run of the transaction the fiber is in; undefined outside any (or in a store that never re-runs). */
export const currentTransactionRun = FiberRef.unsafeMake<TransactionRun | undefined>(undefined)

/**
 * Said by a step that acts outside the database (a gateway's callee about to be called: money moved,
 * a refund or evidence sent): the transaction it runs in, if any, is never run again, and a race it
 * loses is its answer. Outside a transaction it does nothing.
 */
export const actsOutsideTheDatabase: Effect.Effect<void> = Effect.map(FiberRef.get(currentTransactionRun), (run) => {
  if (run !== undefined) run.outsideTheDatabase = true
})

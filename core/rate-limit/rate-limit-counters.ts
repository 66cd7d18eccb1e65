import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { StorageError } from "../shared/storage-error.js"

export interface CounterAddition {
  readonly key: string
  readonly windowStartSeconds: number
  readonly requests: number
}

/**
 * Fixed-window request counters kept in the store, so several hosts sharing one database share
 * one limit. Windows are identified by their start in Unix seconds.
 */
export class RateLimitCounters extends Context.Tag("merchant-payments/RateLimitCounters")<RateLimitCounters, {
  /** Adds `requests` (at least 1) to the window and returns its total including them. */
  readonly add: (key: string, windowStartSeconds: number, requests: number) => Effect.Effect<number, StorageError>
  /**
   * Adds each window's `requests` (0 allowed: it only asks for the total) and returns the totals in
   * the order given, as few statements as the store allows: on SQLite each statement is a durable
   * commit, an fsync on the one event loop, so a flush of many windows must not be many statements.
   * All or nothing: on failure none of the additions counts. Each window appears at most once.
   */
  readonly addAll: (additions: ReadonlyArray<CounterAddition>) => Effect.Effect<ReadonlyArray<number>, StorageError>
  /** Drops windows that started before the given second; returns how many. */
  readonly purgeBefore: (windowStartSeconds: number) => Effect.Effect<number, StorageError>
}>() {}

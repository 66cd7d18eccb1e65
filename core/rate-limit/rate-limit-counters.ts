import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { StorageError } from "../shared/storage-error.js"

/**
 * Fixed-window request counters kept in the store, so several hosts sharing one database share
 * one limit. Windows are identified by their start in Unix seconds.
 */
export class RateLimitCounters extends Context.Tag("merchant-payments/RateLimitCounters")<RateLimitCounters, {
  /** Adds `requests` (at least 1) to the window and returns its total including them. */
  readonly add: (key: string, windowStartSeconds: number, requests: number) => Effect.Effect<number, StorageError>
  /** Drops windows that started before the given second; returns how many. */
  readonly purgeBefore: (windowStartSeconds: number) => Effect.Effect<number, StorageError>
}>() {}

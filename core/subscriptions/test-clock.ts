import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"

/** `advancing` while an advance runs its objects' due work; `internal_failure` when one could not finish. */
export const TestClockStatus = Schema.Literal("ready", "advancing", "internal_failure")
export type TestClockStatus = typeof TestClockStatus.Type

/** A merchant's sandbox clock: the subscriptions created on it live on its frozen time. */
export interface TestClock {
  readonly id: string
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly name: string | null
  readonly frozenTime: Instant
  readonly status: TestClockStatus
  readonly createdAt: Instant
  readonly updatedAt: Instant
}

export type NewTestClock = Omit<TestClock, "createdAt" | "updatedAt">

export type TestClockChange = Partial<Pick<TestClock, "frozenTime" | "status">>

export class TestClockRepository extends Context.Tag("merchant-payments/TestClockRepository")<TestClockRepository, {
  readonly insert: (clock: NewTestClock) => Effect.Effect<TestClock, StorageError>
  readonly findById: (id: string) => Effect.Effect<Option.Option<TestClock>, StorageError>
  /** As findById, only when the clock is this merchant's in this environment. */
  readonly findScoped: (merchantId: MerchantId, environment: Environment, id: string) => Effect.Effect<Option.Option<TestClock>, StorageError>
  /** Newest first. */
  readonly list: (merchantId: MerchantId, environment: Environment, limit: number) => Effect.Effect<ReadonlyArray<TestClock>, StorageError>
  /** Compare-and-set on the status, as subscriptions' transition; None when it moved on. */
  readonly update: (id: string, from: ReadonlyArray<TestClockStatus>, change: TestClockChange, at: Instant) => Effect.Effect<Option.Option<TestClock>, StorageError>
  /** Removes the clock row; its objects must be gone first. */
  readonly delete: (id: string) => Effect.Effect<void, StorageError>
}>() {}

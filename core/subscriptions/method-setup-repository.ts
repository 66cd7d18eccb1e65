import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"

/**
 * A setup-only session: a customer replacing a subscription's saved method with nothing to pay,
 * through the gateway record the current method was saved with. Its id is a random token (it is in
 * the return address); it is used once, and refused after `expiresAt`.
 */
export interface MethodSetup {
  readonly id: string
  readonly subscriptionId: string
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly gatewayId: number
  readonly gatewayReference: string | null
  /** The method it saved, once completed. */
  readonly savedMethodId: string | null
  readonly expiresAt: Instant
  readonly completedAt: Instant | null
  readonly createdAt: Instant
}

export class MethodSetupRepository extends Context.Tag("merchant-payments/MethodSetupRepository")<MethodSetupRepository, {
  readonly insert: (setup: MethodSetup) => Effect.Effect<MethodSetup, StorageError>
  readonly findById: (id: string) => Effect.Effect<Option.Option<MethodSetup>, StorageError>
  readonly setReference: (id: string, gatewayReference: string) => Effect.Effect<void, StorageError>
  /**
   * Marks it used with the method it saved: the single use. None when it was already used or is
   * expired at `at`, so two returns racing complete it once.
   */
  readonly complete: (id: string, savedMethodId: string, at: Instant) => Effect.Effect<Option.Option<MethodSetup>, StorageError>
}>() {}

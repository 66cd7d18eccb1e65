import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"

/**
 * A customer's payment method saved at a subscription's checkout, per merchant, environment and
 * customer (by email). The gateway's reusable reference is sealed under the master key: a copy of
 * the database alone cannot charge anyone. The rest is what the customer and merchant are shown.
 */
export interface SavedMethod {
  readonly id: string
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly customerEmail: string
  /** The gateway record it was saved through; off-session charges go through it. */
  readonly gatewayId: number
  readonly sealedReference: string
  readonly brand: string
  readonly last4: string
  readonly expMonth: number
  readonly expYear: number
  readonly createdAt: Instant
}

export class SavedMethodRepository extends Context.Tag("merchant-payments/SavedMethodRepository")<SavedMethodRepository, {
  readonly insert: (method: SavedMethod) => Effect.Effect<SavedMethod, StorageError>
  readonly findById: (id: string) => Effect.Effect<Option.Option<SavedMethod>, StorageError>
}>() {}

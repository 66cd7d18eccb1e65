import { Context, type Effect, type Option } from "effect"
import type { MerchantId } from "../shared/ids.js"
import type { StorageError } from "../shared/storage-error.js"
import type { Merchant, MerchantPatch, NewMerchant } from "./merchant.js"

export class MerchantRepository extends Context.Tag("merchant-payments/MerchantRepository")<MerchantRepository, {
  readonly create: (merchant: NewMerchant) => Effect.Effect<Merchant, StorageError>
  readonly findById: (id: MerchantId) => Effect.Effect<Option.Option<Merchant>, StorageError>
  /** None when no merchant has that id. */
  readonly update: (id: MerchantId, patch: MerchantPatch) => Effect.Effect<Option.Option<Merchant>, StorageError>
  readonly count: Effect.Effect<number, StorageError>
}>() {}

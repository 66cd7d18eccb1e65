import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { MerchantId } from "../shared/ids.js"
import type { StorageError } from "../shared/storage-error.js"
import type { Merchant, MerchantPatch, MerchantStatus, NewMerchant } from "./merchant.js"

/** One page of merchants, newest first, with the total that match the filter (for page counts). */
export interface MerchantListQuery {
  readonly status?: MerchantStatus
  readonly limit: number
  readonly offset: number
}

export interface MerchantListPage {
  readonly merchants: ReadonlyArray<Merchant>
  readonly total: number
}

export class MerchantRepository extends Context.Tag("merchant-payments/MerchantRepository")<MerchantRepository, {
  readonly create: (merchant: NewMerchant) => Effect.Effect<Merchant, StorageError>
  readonly findById: (id: MerchantId) => Effect.Effect<Option.Option<Merchant>, StorageError>
  /** The merchants of these ids that exist, in no particular order. */
  readonly findByIds: (ids: ReadonlyArray<MerchantId>) => Effect.Effect<ReadonlyArray<Merchant>, StorageError>
  /** None when no merchant has that id. */
  readonly update: (id: MerchantId, patch: MerchantPatch) => Effect.Effect<Option.Option<Merchant>, StorageError>
  readonly count: Effect.Effect<number, StorageError>
  /** Newest first (creation time, then id), so a page is stable while no merchant is added. */
  readonly list: (query: MerchantListQuery) => Effect.Effect<MerchantListPage, StorageError>
}>() {}

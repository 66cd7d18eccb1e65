import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import type { PayoutDestination } from "./payout-destination.js"

/** Where a merchant's payouts go: always read within one merchant and one environment. */
export class PayoutDestinationRepository extends Context.Tag("merchant-payments/PayoutDestinationRepository")<
  PayoutDestinationRepository,
  {
    /**
     * Adds the destination unless the merchant already keeps `limit` in its environment: false
     * then, and nothing is written.
     */
    readonly create: (destination: PayoutDestination, limit: number) => Effect.Effect<boolean, StorageError>
    /** The merchant's destinations in the environment, oldest first; deleted ones are not listed. */
    readonly list: (merchantId: MerchantId, environment: Environment) => Effect.Effect<ReadonlyArray<PayoutDestination>, StorageError>
    /** One of the merchant's destinations in the environment, unless deleted: where a payout may go. */
    readonly find: (merchantId: MerchantId, environment: Environment, id: string) => Effect.Effect<Option.Option<PayoutDestination>, StorageError>
    /** Any destination by id, a deleted one included: where an approved payout asked earlier still goes. */
    readonly findForPayout: (id: string) => Effect.Effect<Option.Option<PayoutDestination>, StorageError>
    /**
     * Deletes one of the merchant's destinations in the environment: false when there is none by
     * that id there (another merchant's or environment's id included). The row is kept, marked
     * deleted, for the payouts that will name it.
     */
    readonly remove: (merchantId: MerchantId, environment: Environment, id: string, at: Instant) => Effect.Effect<boolean, StorageError>
  }
>() {}

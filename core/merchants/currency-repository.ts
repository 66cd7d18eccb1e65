import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { MerchantId } from "../shared/ids.js"
import type { StorageError } from "../shared/storage-error.js"

/** The currencies a merchant's dashboard has enabled (spec 1.6, 4.1 step 3). */
export class MerchantCurrencyRepository extends Context.Tag("merchant-payments/MerchantCurrencyRepository")<
  MerchantCurrencyRepository,
  {
    /** Replaces the whole list. */
    readonly replace: (merchantId: MerchantId, currencyCodes: ReadonlyArray<string>) => Effect.Effect<void, StorageError>
    /** Sorted, distinct codes. */
    readonly list: (merchantId: MerchantId) => Effect.Effect<ReadonlyArray<string>, StorageError>
  }
>() {}

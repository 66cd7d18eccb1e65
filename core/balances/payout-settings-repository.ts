import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import type { PayoutSchedule, PayoutSettings } from "./payout-settings.js"

export class PayoutSettingsRepository extends Context.Tag("merchant-payments/PayoutSettingsRepository")<PayoutSettingsRepository, {
  /** The merchant's settings; the defaults when none were ever written. */
  readonly get: (merchantId: MerchantId) => Effect.Effect<PayoutSettings, StorageError>
  /** Replaces the merchant's settings (the merchant must exist). */
  readonly put: (merchantId: MerchantId, settings: PayoutSettings, at: Instant) => Effect.Effect<void, StorageError>
  /** Approved merchants paid out on `schedule`, by id: the automatic payouts' work list. */
  readonly approvedOnSchedule: (schedule: Exclude<PayoutSchedule, "manual">) => Effect.Effect<ReadonlyArray<MerchantId>, StorageError>
}>() {}

import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { SavedMethodReport } from "../gateways/plugin-saved-methods.js"
import type { StorageError } from "../shared/storage-error.js"
import type { Payment } from "./payment.js"

/**
 * Where a method the gateway saved with a paid payment goes: payments know nothing of
 * subscriptions, so the subscriptions feature provides this (it keeps the method for the invoice's
 * subscription). Without it, a saved method is dropped: nothing else can use one.
 */
export class SavedMethodKeeper extends Context.Reference<SavedMethodKeeper>()("merchant-payments/SavedMethodKeeper", {
  defaultValue: (): {
    readonly keep: (payment: Payment, gatewayId: number, method: SavedMethodReport) => Effect.Effect<void, StorageError>
  } => ({ keep: () => Effect.void })
}) {}

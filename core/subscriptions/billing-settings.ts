import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"

/** What dunning does when the grace period ends unpaid: cancel the subscription, or leave it past_due. */
export const DunningFinalAction = Schema.Literal("cancel", "stay_past_due")
export type DunningFinalAction = typeof DunningFinalAction.Type

/**
 * How a merchant's subscriptions collect revenue (issue 36). One set per merchant, for both
 * environments; a merchant that never set them has the defaults.
 */
export interface BillingSettings {
  /**
   * When a declined renewal charge of a saved method is tried again: hours after the renewal's
   * first try, ascending. Then the invoice falls back to the hosted checkout and dunning.
   */
  readonly retryHours: ReadonlyArray<number>
  /** Reminders of an unpaid hosted invoice: days after dunning begins, ascending. */
  readonly reminderDays: ReadonlyArray<number>
  /** Days a subscription stays past_due, unpaid, before the final action. */
  readonly graceDays: number
  readonly finalAction: DunningFinalAction
  /** Whether a customer may cancel (at period end) from the customer portal. */
  readonly portalCancellation: boolean
}

/**
 * Like Stripe's default: up to 8 tries within 2 weeks (the renewal's own and 7 retries);
 * reminders 1, 3 and 7 days after the invoice falls due; 14 days of grace, then cancel.
 */
export const defaultBillingSettings: BillingSettings = {
  retryHours: [24, 72, 120, 168, 216, 264, 336],
  reminderDays: [1, 3, 7],
  graceDays: 14,
  finalAction: "cancel",
  portalCancellation: true
}

/** The longest retry, reminder or grace an operator may set: 60 days. */
export const MAX_BILLING_DAYS = 60

export class BillingSettingsRepository extends Context.Tag("merchant-payments/BillingSettingsRepository")<BillingSettingsRepository, {
  /** The merchant's settings; the defaults when none were ever written. */
  readonly get: (merchantId: MerchantId) => Effect.Effect<BillingSettings, StorageError>
  /** Replaces the merchant's settings (the merchant must exist). */
  readonly put: (merchantId: MerchantId, settings: BillingSettings, at: Instant) => Effect.Effect<void, StorageError>
}>() {}

/** The merchant's billing settings (the defaults when never set). */
export const billingSettingsOf = (merchantId: MerchantId) =>
  Effect.flatMap(BillingSettingsRepository, (repo) => repo.get(merchantId))

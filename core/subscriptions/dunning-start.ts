import * as Effect from "effect/Effect"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import { BillingSettingsRepository } from "./billing-settings.js"
import { newDunning } from "./dunning-plan.js"
import type { Subscription, SubscriptionChange } from "./subscription.js"

/**
 * The change that begins dunning for a subscription whose renewal invoice is unpaid at `at` (the
 * hosted path's renewal, or a saved method whose retries ran out): the merchant's reminder days,
 * grace and final action as they stand now, the first step scheduled. The caller merges it into
 * the change it writes with moveSubscription (which wakes the subscription for the step) and the
 * subscription must be past_due by that change. A campaign already running is kept as it is.
 */
export const beginDunning = (subscription: Subscription, at: Instant): Effect.Effect<SubscriptionChange, StorageError, BillingSettingsRepository> =>
  subscription.dunning !== null
    ? Effect.succeed({})
    : Effect.map(
      Effect.flatMap(BillingSettingsRepository, (repo) => repo.get(subscription.merchantId)),
      (settings) => ({ dunning: newDunning(settings, at) })
    )

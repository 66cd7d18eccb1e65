import * as Effect from "effect/Effect"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import type { BillingSettingsRepository } from "./billing-settings.js"
import type { Subscription, SubscriptionChange } from "./subscription.js"

// Stub: the dunning helper's real one replaces this file at merge.
export const beginDunning = (_subscription: Subscription, _at: Instant): Effect.Effect<SubscriptionChange, StorageError, BillingSettingsRepository> => Effect.succeed({})

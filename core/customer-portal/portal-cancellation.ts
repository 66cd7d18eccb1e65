import * as Effect from "effect/Effect"
import type { MerchantId } from "../shared/ids.js"

/**
 * Whether the merchant lets customers cancel at period end from the portal (billing setting
 * `portal_cancellation`, default true). Stand-in until core/subscriptions/billing-settings.ts lands:
 * the default for every merchant.
 */
export const portalCancellationAllowed = (_merchantId: MerchantId): Effect.Effect<boolean> => Effect.succeed(true)

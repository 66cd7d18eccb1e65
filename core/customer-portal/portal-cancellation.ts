import * as Effect from "effect/Effect"
import type { MerchantId } from "../shared/ids.js"
import { billingSettingsOf } from "../subscriptions/billing-settings.js"

/** Whether the merchant lets customers cancel at period end from the portal (billing setting `portal_cancellation`, default true). */
export const portalCancellationAllowed = (merchantId: MerchantId) =>
  Effect.map(billingSettingsOf(merchantId), (settings) => settings.portalCancellation)

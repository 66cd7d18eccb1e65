import * as Effect from "effect/Effect"
import { callerPayoutSettings } from "../../../core/balances/payout-settings-admin.js"
import { PayoutSettingsEnvelope, payoutSettingsJson } from "../contract/payout-settings-contracts.js"
import { endpoint } from "../endpoint/endpoint.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"

/** The merchant reads what the operator set: its delay, reserve and schedule (read-only here). */
const get = endpoint({
  method: "get",
  path: "/api/v1/payout-settings",
  operationId: "getPayoutSettings",
  summary: "The merchant's payout delay, rolling reserve and payout schedule",
  description: "Set by the platform's operator; the same in both environments, the delay's default aside.",
  tag: "Wallets",
  security: "merchant",
  success: { status: 200, description: "The settings.", schema: PayoutSettingsEnvelope },
  handler: Effect.map(Effect.flatMap(CurrentMerchant, callerPayoutSettings), (settings) => ({ data: payoutSettingsJson(settings) }))
})

export const payoutSettingsEndpoints = [get] as const

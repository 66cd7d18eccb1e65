import * as Effect from "effect/Effect"
import { callerBillingSettings, replaceCallerBillingSettings } from "../../../core/subscriptions/billing-settings-admin.js"
import { BillingSettingsEnvelope, billingSettingsInput, billingSettingsJson, replaceBillingSettingsBody } from "../contract/billing-settings-contracts.js"
import { validBody } from "../contract/read-body.js"
import { endpoint } from "../endpoint/endpoint.js"
import { CurrentMerchant } from "../endpoint/merchant-endpoint.js"
import { withoutUndefined } from "../request/body-fields.js"

const get = endpoint({
  method: "get",
  path: "/api/v1/billing-settings",
  operationId: "getBillingSettings",
  summary: "The merchant's billing settings: charge retries, dunning reminders, grace and final action",
  description: "One set for both environments; the defaults until the merchant sets them.",
  tag: "Subscriptions",
  security: "merchant",
  success: { status: 200, description: "The settings.", schema: BillingSettingsEnvelope },
  handler: Effect.map(Effect.flatMap(CurrentMerchant, callerBillingSettings), (settings) => ({ data: billingSettingsJson(settings) }))
})

const replace = endpoint({
  method: "put",
  path: "/api/v1/billing-settings",
  operationId: "replaceBillingSettings",
  summary: "Replace the merchant's billing settings",
  description: "The settings as a whole (a field left out takes its default), for both environments. Dunning campaigns already running keep the terms they began with.",
  tag: "Subscriptions",
  security: "merchant",
  body: replaceBillingSettingsBody,
  success: { status: 200, description: "The settings now.", schema: BillingSettingsEnvelope },
  handler: Effect.gen(function*() {
    const caller = yield* CurrentMerchant
    const body = yield* validBody(replaceBillingSettingsBody)
    const settings = yield* replaceCallerBillingSettings(caller, withoutUndefined(billingSettingsInput(body)))
    return { data: billingSettingsJson(settings) }
  })
})

export const billingSettingsEndpoints = [get, replace] as const

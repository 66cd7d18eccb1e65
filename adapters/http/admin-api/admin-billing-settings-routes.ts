import * as Effect from "effect/Effect"
import { billingSettingsOfMerchant, replaceMerchantBillingSettings } from "../../../core/subscriptions/billing-settings-admin.js"
import { MerchantId } from "../../../core/shared/ids.js"
import { BillingSettingsEnvelope, billingSettingsInput, billingSettingsJson, replaceBillingSettingsBody } from "../contract/billing-settings-contracts.js"
import { merchantIdInPath } from "../contract/parameters.js"
import { validBody } from "../contract/read-body.js"
import { endpoint } from "../endpoint/endpoint.js"
import { withoutUndefined } from "../request/body-fields.js"

const merchantId = Effect.map(merchantIdInPath.read, MerchantId)

const get = endpoint({
  method: "get",
  path: "/admin/v1/merchants/{id}/billing-settings",
  operationId: "getMerchantBillingSettings",
  summary: "The merchant's billing settings: charge retries, dunning reminders, grace and final action",
  tag: "Admin: merchants",
  security: "admin",
  parameters: [merchantIdInPath],
  success: { status: 200, description: "The settings (the defaults when none were set).", schema: BillingSettingsEnvelope },
  errors: ["MerchantNotFound"],
  handler: Effect.map(Effect.flatMap(merchantId, billingSettingsOfMerchant), (settings) => ({ data: billingSettingsJson(settings) }))
})

const replace = endpoint({
  method: "put",
  path: "/admin/v1/merchants/{id}/billing-settings",
  operationId: "replaceMerchantBillingSettings",
  summary: "Replace the merchant's billing settings",
  description: "The settings as a whole (a field left out takes its default). Dunning campaigns already running keep the terms they began with.",
  tag: "Admin: merchants",
  security: "admin",
  parameters: [merchantIdInPath],
  body: replaceBillingSettingsBody,
  success: { status: 200, description: "The settings now.", schema: BillingSettingsEnvelope },
  errors: ["MerchantNotFound"],
  handler: Effect.gen(function*() {
    const id = yield* merchantId
    const body = yield* validBody(replaceBillingSettingsBody)
    return { data: billingSettingsJson(yield* replaceMerchantBillingSettings(id, withoutUndefined(billingSettingsInput(body)))) }
  })
})

/** docs/admin-api.md, merchants: billing settings beside payout settings. */
export const adminBillingSettingsEndpoints = [get, replace] as const

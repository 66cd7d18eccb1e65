import * as Effect from "effect/Effect"
import type { MerchantStatus } from "../../../core/merchants/merchant.js"
import type { IpnJsonStyle, IpnSignatureFormat } from "../../../core/webhooks/ipn-compatibility.js"
import type { AmountInput } from "../../../core/money/parse.js"
import { createMerchant, endCredentialOverlap, issueCredentials, listMerchants, replaceCurrencies, requireMerchant, updateMerchant } from "../../../core/merchants/merchant-admin.js"
import { replaceMerchantGateways } from "../../../core/gateways/gateway-admin.js"
import { GatewayId, MerchantId } from "../../../core/shared/ids.js"
import { endpoint } from "../endpoint/endpoint.js"
import { withoutUndefined } from "../request/body-fields.js"
import { createMerchantBody, endCredentialOverlapBody, issueCredentialsBody, replaceCurrenciesBody, replaceMerchantGatewaysBody, updateMerchantBody } from "../contract/admin-contracts.js"
import { validBody } from "../contract/read-body.js"
import * as Resources from "../contract/admin-resources.js"
import { merchantIdInPath, merchantStatusParameter } from "../contract/parameters.js"
import { pageNumberQuery, queryOf } from "../contract/query-contract.js"
import { pageJson } from "../request/page-query.js"
import { merchantJson } from "../response/serializers.js"
import { toIsoString } from "../../../core/shared/instant.js"
import { payoutSettingsOf, replacePayoutSettings } from "../../../core/balances/payout-settings-admin.js"
import { PayoutSettingsEnvelope, payoutSettingsJson, replacePayoutSettingsBody } from "../contract/payout-settings-contracts.js"

const merchantId = Effect.map(merchantIdInPath.read, MerchantId)

const merchantInput = <N extends string | undefined>(body: {
  readonly name: N
  readonly status: MerchantStatus | undefined
  readonly ipn_signature_format: IpnSignatureFormat | undefined
  readonly ipn_json_style: IpnJsonStyle | undefined
  readonly fee_percent: AmountInput | undefined
  readonly fee_fixed: AmountInput | undefined
  readonly dispute_fee: AmountInput | undefined
}) => ({
  name: body.name,
  status: body.status,
  ipnSignatureFormat: body.ipn_signature_format,
  ipnJsonStyle: body.ipn_json_style,
  feePercent: body.fee_percent,
  feeFixed: body.fee_fixed,
  disputeFee: body.dispute_fee
})

const create = endpoint({
  method: "post",
  path: "/admin/v1/merchants",
  operationId: "createMerchant",
  summary: "Create a merchant",
  tag: "Admin: merchants",
  security: "admin",
  body: createMerchantBody,
  success: { status: 201, description: "The merchant.", schema: Resources.Merchant },
  handler: Effect.gen(function*() {
    const input = merchantInput(yield* validBody(createMerchantBody))
    return merchantJson(yield* createMerchant({ ...withoutUndefined(input), name: input.name }))
  })
})

const list = endpoint({
  method: "get",
  path: "/admin/v1/merchants",
  operationId: "listMerchants",
  summary: "List merchants, newest first",
  tag: "Admin: merchants",
  security: "admin",
  query: queryOf({ ...pageNumberQuery, status: merchantStatusParameter }),
  success: { status: 200, description: "A page of merchants.", schema: Resources.MerchantPage },
  errors: ["ValidationFailed"],
  handler: ({ page, per_page: perPage, status }) => Effect.gen(function*() {
    const merchants = yield* listMerchants({ page, perPage, ...(status !== undefined ? { status } : {}) })
    return pageJson(merchants, merchantJson)
  })
})

const get = endpoint({
  method: "get",
  path: "/admin/v1/merchants/{id}",
  operationId: "getMerchant",
  summary: "One merchant",
  tag: "Admin: merchants",
  security: "admin",
  parameters: [merchantIdInPath],
  success: { status: 200, description: "The merchant.", schema: Resources.Merchant },
  errors: ["MerchantNotFound"],
  handler: Effect.map(Effect.flatMap(merchantId, requireMerchant), merchantJson)
})

const update = endpoint({
  method: "patch",
  path: "/admin/v1/merchants/{id}",
  operationId: "updateMerchant",
  summary: "Change a merchant",
  tag: "Admin: merchants",
  security: "admin",
  parameters: [merchantIdInPath],
  body: updateMerchantBody,
  success: { status: 200, description: "The merchant.", schema: Resources.Merchant },
  errors: ["MerchantNotFound"],
  handler: Effect.gen(function*() {
    const id = yield* merchantId
    const input = merchantInput(yield* validBody(updateMerchantBody))
    return merchantJson(yield* updateMerchant(id, withoutUndefined(input)))
  })
})

const credentials = endpoint({
  method: "post",
  path: "/admin/v1/merchants/{id}/credentials",
  operationId: "issueCredentials",
  summary: "Issue a fresh credential set",
  description: "Replaces the environment's previous set, at once or after `overlap_seconds` during which both sets work " +
    "(requests signed with either; webhooks carry a Standard Webhooks signature for each secret, X-Signature the new one's). " +
    "The secrets are shown in this response only.",
  tag: "Admin: merchants",
  security: "admin",
  parameters: [merchantIdInPath],
  body: issueCredentialsBody,
  success: { status: 201, description: "The new credentials.", schema: Resources.IssuedCredentials },
  errors: ["MerchantNotFound", "MerchantKeyTaken"],
  handler: Effect.gen(function*() {
    const id = yield* merchantId
    const { environment, overlap_seconds } = yield* validBody(issueCredentialsBody)
    const issued = yield* issueCredentials(id, environment, withoutUndefined({ overlapSeconds: overlap_seconds }))
    return {
      environment: issued.environment,
      merchant_key: issued.merchantKey,
      api_key: issued.apiKey,
      client_secret: issued.clientSecret,
      webhook_secret: issued.webhookSecret,
      previous_valid_until: issued.previousValidUntil === null ? null : toIsoString(issued.previousValidUntil)
    }
  })
})

const endOverlap = endpoint({
  method: "post",
  path: "/admin/v1/merchants/{id}/credentials/end-overlap",
  operationId: "endCredentialOverlap",
  summary: "End a credential overlap early",
  description: "Every set the environment's rotations replaced with an overlap stops working now and is destroyed; the current set is untouched.",
  tag: "Admin: merchants",
  security: "admin",
  parameters: [merchantIdInPath],
  body: endCredentialOverlapBody,
  success: { status: 200, description: "How many replaced sets were destroyed.", schema: Resources.EndedCredentialOverlap },
  errors: ["MerchantNotFound"],
  handler: Effect.gen(function*() {
    const id = yield* merchantId
    const { environment } = yield* validBody(endCredentialOverlapBody)
    return yield* endCredentialOverlap(id, environment)
  })
})

const currencies = endpoint({
  method: "put",
  path: "/admin/v1/merchants/{id}/currencies",
  operationId: "replaceMerchantCurrencies",
  summary: "Replace the merchant's currencies",
  tag: "Admin: merchants",
  security: "admin",
  parameters: [merchantIdInPath],
  body: replaceCurrenciesBody,
  success: { status: 200, description: "The currencies now enabled.", schema: Resources.MerchantCurrencies },
  errors: ["MerchantNotFound"],
  handler: Effect.gen(function*() {
    const id = yield* merchantId
    const { currency_codes } = yield* validBody(replaceCurrenciesBody)
    return { merchant_id: id, currency_codes: yield* replaceCurrencies(id, currency_codes) }
  })
})

const gateways = endpoint({
  method: "put",
  path: "/admin/v1/merchants/{id}/gateways",
  operationId: "replaceMerchantGateways",
  summary: "Replace the merchant's gateway selection",
  tag: "Admin: gateways",
  security: "admin",
  parameters: [merchantIdInPath],
  body: replaceMerchantGatewaysBody,
  success: { status: 200, description: "The selection, in id order.", schema: Resources.MerchantGateways },
  errors: ["MerchantNotFound", "GatewayNotFound"],
  handler: Effect.gen(function*() {
    const id = yield* merchantId
    const { gateway_ids } = yield* validBody(replaceMerchantGatewaysBody)
    return { merchant_id: id, gateway_ids: yield* replaceMerchantGateways(id, gateway_ids.map(GatewayId)) }
  })
})

const payoutSettings = endpoint({
  method: "get",
  path: "/admin/v1/merchants/{id}/payout-settings",
  operationId: "getMerchantPayoutSettings",
  summary: "The merchant's payout delay, rolling reserve and payout schedule",
  tag: "Admin: merchants",
  security: "admin",
  parameters: [merchantIdInPath],
  success: { status: 200, description: "The settings (the defaults when none were set).", schema: PayoutSettingsEnvelope },
  errors: ["MerchantNotFound"],
  handler: Effect.map(Effect.flatMap(merchantId, payoutSettingsOf), (settings) => ({ data: payoutSettingsJson(settings) }))
})

const replaceSettings = endpoint({
  method: "put",
  path: "/admin/v1/merchants/{id}/payout-settings",
  operationId: "replaceMerchantPayoutSettings",
  summary: "Replace the merchant's payout delay, rolling reserve and payout schedule",
  description: "The settings as a whole (a field left out takes its default). They apply to payments completed from now on.",
  tag: "Admin: merchants",
  security: "admin",
  parameters: [merchantIdInPath],
  body: replacePayoutSettingsBody,
  success: { status: 200, description: "The settings now.", schema: PayoutSettingsEnvelope },
  errors: ["MerchantNotFound"],
  handler: Effect.gen(function*() {
    const id = yield* merchantId
    const body = yield* validBody(replacePayoutSettingsBody)
    const settings = yield* replacePayoutSettings(id, withoutUndefined({
      payoutDelayDays: body.payout_delay_days,
      reservePercent: body.reserve_percent,
      reserveDays: body.reserve_days,
      payoutSchedule: body.payout_schedule,
      payoutMinimum: body.payout_minimum
    }))
    return { data: payoutSettingsJson(settings) }
  })
})

/** docs/admin-api.md, merchants: the merchant, its credentials, currencies, gateway selection and payout settings. */
export const adminMerchantEndpoints = [create, list, get, update, credentials, endOverlap, currencies, gateways, payoutSettings, replaceSettings] as const

import { environments } from "../../../core/shared/environment.js"
import { MerchantStatus } from "../../../core/merchants/merchant.js"
import { IpnJsonStyle, IpnSignatureFormat } from "../../../core/webhooks/ipn-compatibility.js"
import { GatewayType } from "../../../core/gateways/gateway.js"
import { USER_ROLES } from "../../../core/merchant-users/merchant-user.js"
import { MAX_EMAIL_LENGTH } from "../../../core/merchant-users/user-admin.js"
import { amount, boolean, email, type FieldRule, integer, integerArray, jsonObject, oneOf, string, stringArray, url, withDefault } from "./field-rules.js"
import { bodyContract } from "./read-body.js"

const merchantFields = <N extends FieldRule<string>>(name: N) => ({
  name,
  status: oneOf(MerchantStatus.literals, { description: "pending when a merchant is created without one." }),
  ipn_signature_format: oneOf(IpnSignatureFormat.literals, {
    description: "X-Signature of its webhooks: bare hex (the contract's, the default) or sha256= and the hex, for receivers that accept only that."
  }),
  ipn_json_style: oneOf(IpnJsonStyle.literals, {
    description: "Its webhooks' body: compact (the default) or php, as PHP's json_encode writes it (escaped / and \\uXXXX), for receivers that re-encode the body before checking it."
  }),
  fee_percent: amount({ description: "0 to 100, exact." }),
  fee_fixed: amount({ description: "In each payment's currency, exact." }),
  dispute_fee: amount({ description: "Charged from the wallet with each dispute opened, in the disputed payment's currency (rounded to its minor unit), never returned. 0 by default." })
})

export const createMerchantBody = bodyContract("CreateMerchantRequest", "A merchant to create.",
  merchantFields(string({ required: true, max: 100, min: 1 })))

export const updateMerchantBody = bodyContract("UpdateMerchantRequest", "The merchant fields to change; the others keep their values.",
  merchantFields(string({ max: 100, min: 1 })), { update: true })

/** Thirty days: the longest a replaced credential set may keep working beside its successor. */
export const MAX_OVERLAP_SECONDS = 2_592_000

export const issueCredentialsBody = bodyContract("IssueCredentialsRequest", "The environment whose credential set is replaced.", {
  environment: oneOf(environments, { required: true }),
  overlap_seconds: integer({
    min: 0,
    max: MAX_OVERLAP_SECONDS,
    description: "How long the replaced set keeps working beside the new one (0, the default: it stops at once)."
  })
})

export const endCredentialOverlapBody = bodyContract("EndCredentialOverlapRequest", "The environment whose replaced sets stop working now.", {
  environment: oneOf(environments, { required: true })
})

export const replaceCurrenciesBody = bodyContract("ReplaceCurrenciesRequest", "The currencies the merchant may take payments in.", {
  currency_codes: stringArray({ required: true, maxItems: 200 })
})

export const replaceMerchantGatewaysBody = bodyContract("ReplaceMerchantGatewaysRequest", "The merchant's gateway selection; empty clears it.", {
  gateway_ids: integerArray({ required: true, maxItems: 200 })
})

export const createWalletBody = bodyContract("CreateWalletRequest", "A wallet for a currency in one environment.", {
  currency_code: string({ required: true, max: 10 }),
  environment: oneOf(environments, { required: true })
})

export const updateWalletBody = bodyContract("UpdateWalletRequest", "Activates or deactivates a wallet.", {
  active: boolean({ required: true })
})

export const adjustWalletBody = bodyContract("WalletAdjustmentRequest", "A manual ledger entry.", {
  amount: amount({ required: true, description: "Exact; negative to debit." }),
  reason: string({ required: true, max: 255 })
})

const gatewayConfig = jsonObject({ description: "The plugin's own settings, checked by its parseConfig; secret fields are sealed and never shown." })

export const createGatewayBody = bodyContract("CreateGatewayRequest", "A gateway served by a registered plugin.", {
  plugin: string({ required: true, max: 32 }),
  name: string({ required: true, max: 100, min: 1 }),
  currency_code: string({ required: true, max: 10 }),
  method: string({ required: true, max: 31 }),
  // Hosted checkout offers automatic gateways only, so that is what a new one is unless told.
  type: withDefault(oneOf(GatewayType.literals, {}), "automatic"),
  active: withDefault(boolean({}), true),
  config: gatewayConfig
})

export const updateGatewayBody = bodyContract("UpdateGatewayRequest", "The gateway fields to change; a new config replaces the old one whole.", {
  name: string({ max: 100, min: 1 }),
  active: boolean({}),
  type: oneOf(GatewayType.literals, {}),
  config: gatewayConfig
}, { update: true })

const HTTP_URL = { max: 255 } as const

export const updateSettingsBody = bodyContract("UpdateSettingsRequest", "The settings to change.", {
  site_name: string({ max: 100, min: 1 }),
  site_logo: url(HTTP_URL),
  site_url: url(HTTP_URL),
  gateway_name: string({ max: 100, min: 1 }),
  gateway_description: string({ max: 500 }),
  signature_required: boolean({}),
  signature_tolerance_seconds: integer({ min: 1, max: 86_400 }),
  rate_limit_per_minute: integer({ min: 1, max: 1_000_000 })
}, { update: true })

const TEN_YEARS_SECONDS = 10 * 366 * 24 * 60 * 60

export const advanceClockBody = bodyContract("AdvanceClockRequest", "How far business time moves forward.", {
  // Business time only moves forward: entries already written keep their order.
  seconds: integer({ required: true, min: 1, max: TEN_YEARS_SECONDS })
})

export const createMerchantUserBody = bodyContract("CreateMerchantUserRequest", "A dashboard user to invite.", {
  email: email({ required: true, max: MAX_EMAIL_LENGTH, description: "Stored lower-cased; unique across every merchant." }),
  role: oneOf(USER_ROLES, { required: true })
})

export const updateMerchantUserBody = bodyContract("UpdateMerchantUserRequest", "Disables a dashboard user (signing it out everywhere) or enables it again.", {
  disabled: boolean({ required: true })
})

import type { Merchant } from "../../../core/merchants/merchant.js"
import type { Gateway } from "../../../core/gateways/gateway.js"
import type { SiteSettings } from "../../../core/settings/site-settings.js"
import { toIsoString } from "../../../core/shared/instant.js"
import type { LedgerEntry, Wallet } from "../../../core/wallets/wallet.js"
import type * as Resources from "../contract/admin-resources.js"
import { jsonAmount } from "../contract/json-codec.js"

// Each answers its documented schema's Type: a field added here and not there, or dropped, fails to compile.

export const merchantJson = (merchant: Merchant): typeof Resources.Merchant.Type => ({
  id: merchant.id,
  name: merchant.name,
  status: merchant.status,
  ipn_signature_format: merchant.ipnSignatureFormat,
  ipn_json_style: merchant.ipnJsonStyle,
  fee_percent: jsonAmount(merchant.feePercent),
  fee_fixed: jsonAmount(merchant.feeFixed),
  dispute_fee: jsonAmount(merchant.disputeFee),
  created_at: toIsoString(merchant.createdAt)
})

export const walletJson = (wallet: Wallet): typeof Resources.Wallet.Type => ({
  id: wallet.id,
  merchant_id: wallet.merchantId,
  currency_code: wallet.currency,
  environment: wallet.environment,
  balance: jsonAmount(wallet.balance),
  active: wallet.active
})

export const adjustmentJson = (entry: LedgerEntry, currency: string): typeof Resources.Adjustment.Type => ({
  id: entry.id,
  wallet_id: entry.walletId,
  currency_code: currency,
  amount: jsonAmount(entry.delta),
  balance: jsonAmount(entry.balanceAfter),
  reason: entry.memo,
  created_at: toIsoString(entry.createdAt)
})

export const settingsJson = (settings: SiteSettings): typeof Resources.Settings.Type => ({
  site_name: settings.siteName,
  site_logo: settings.siteLogo,
  site_url: settings.siteUrl,
  gateway_name: settings.gatewayName,
  gateway_description: settings.gatewayDescription,
  signature_required: settings.signatureRequired,
  signature_tolerance_seconds: settings.signatureToleranceSeconds,
  rate_limit_per_minute: settings.rateLimitPerMinute
})

/** The plugin's config is left out: it may hold the gateway's credentials. */
export const gatewayJson = (gateway: Gateway): typeof Resources.Gateway.Type => ({
  id: gateway.id,
  plugin: gateway.plugin,
  code: gateway.code,
  name: gateway.name,
  currency_code: gateway.currency,
  method: gateway.method,
  type: gateway.type,
  active: gateway.active
})

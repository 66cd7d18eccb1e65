import * as Schema from "effect/Schema"

/**
 * Administrator settings with their defaults. Deployment config (environment variables) gives the
 * defaults; what an administrator changes through the admin API is stored and wins over them.
 */
export interface SiteSettings {
  readonly siteName: string
  readonly siteLogo: string
  readonly siteUrl: string
  readonly gatewayName: string
  readonly gatewayDescription: string
  readonly signatureRequired: boolean
  readonly signatureToleranceSeconds: number
  readonly rateLimitPerMinute: number
}

export const defaultSiteSettings: SiteSettings = {
  siteName: "Merchant Payments",
  siteLogo: "https://merchant-payments.invalid/logo.svg",
  siteUrl: "https://merchant-payments.invalid",
  gatewayName: "Merchant Payments Gateway",
  gatewayDescription: "Hosted checkout, refunds and signed webhooks.",
  signatureRequired: true,
  signatureToleranceSeconds: 300,
  rateLimitPerMinute: 120
}

const HttpUrl = Schema.String.pipe(
  Schema.maxLength(255),
  Schema.filter((value) => /^https?:\/\/[^\s/?#]+[^\s]*$/i.test(value) || "must be an absolute http(s) URL")
)

/** What may be stored: every field optional, each validated (also when read back from the store). */
export const SiteSettingsPatch = Schema.Struct({
  siteName: Schema.optionalWith(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)), { exact: true }),
  siteLogo: Schema.optionalWith(HttpUrl, { exact: true }),
  siteUrl: Schema.optionalWith(HttpUrl, { exact: true }),
  gatewayName: Schema.optionalWith(Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)), { exact: true }),
  gatewayDescription: Schema.optionalWith(Schema.String.pipe(Schema.maxLength(500)), { exact: true }),
  signatureRequired: Schema.optionalWith(Schema.Boolean, { exact: true }),
  signatureToleranceSeconds: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 86_400)), { exact: true }),
  rateLimitPerMinute: Schema.optionalWith(Schema.Int.pipe(Schema.between(1, 1_000_000)), { exact: true })
})
export type SiteSettingsPatch = typeof SiteSettingsPatch.Type

/** The settings key the overrides are stored under. */
export const SITE_SETTINGS_KEY = "site"

export const applyPatch = (base: SiteSettings, patch: SiteSettingsPatch): SiteSettings => ({ ...base, ...patch })

/** Later patches win field by field: what is stored is the sum of every administrator change. */
export const mergePatches = (earlier: SiteSettingsPatch, later: SiteSettingsPatch): SiteSettingsPatch => ({
  ...earlier,
  ...later
})

import * as Effect from "effect/Effect"
import { SiteSettingsService } from "../../../core/settings/site-settings-service.js"
import { endpoint } from "../endpoint/endpoint.js"
import { SiteInfo } from "../contract/payment-resources.js"

/** Spec 2.7 and 9.2: branding from settings, fixed feature and environment labels. */
const siteInfo = endpoint({
  method: "get",
  path: "/api/v1/site-info",
  operationId: "siteInfo",
  summary: "Branding and environment labels",
  tag: "Site",
  security: "merchant",
  success: { status: 200, description: "Site information (spec 2.7).", schema: SiteInfo },
  handler: Effect.map(Effect.flatMap(SiteSettingsService, (settings) => settings.current), (settings) => ({
    site_name: settings.siteName,
    site_logo: settings.siteLogo,
    site_url: settings.siteUrl,
    gateway_name: settings.gatewayName,
    gateway_description: settings.gatewayDescription,
    features: {
      ssl_secured: "SSL Secured",
      instant_processing: "Instant Processing",
      global_support: "Global Support",
      mobile_ready: "Mobile Ready"
    },
    environments: { production: "Production", sandbox: "Sandbox" },
    api_version: "1.0",
    status: "active" as const
  }))
})

export const siteInfoEndpoints = [siteInfo] as const

import * as Effect from "effect/Effect"
import { SiteSettingsService } from "../../../core/settings/site-settings-service.js"
import { endpoint } from "../endpoint/endpoint.js"
import { withoutUndefined } from "../request/body-fields.js"
import { updateSettingsBody } from "../contract/admin-contracts.js"
import * as Resources from "../contract/admin-resources.js"
import { validBody } from "../contract/read-body.js"
import { settingsJson } from "../response/serializers.js"

const get = endpoint({
  method: "get",
  path: "/admin/v1/settings",
  operationId: "getSettings",
  summary: "Branding, signature rules and rate limit",
  tag: "Admin: settings",
  security: "admin",
  success: { status: 200, description: "The settings.", schema: Resources.Settings },
  handler: Effect.map(Effect.flatMap(SiteSettingsService, (settings) => settings.current), settingsJson)
})

const update = endpoint({
  method: "patch",
  path: "/admin/v1/settings",
  operationId: "updateSettings",
  summary: "Change settings",
  tag: "Admin: settings",
  security: "admin",
  body: updateSettingsBody,
  success: { status: 200, description: "The settings; every host sees them within 2 s.", schema: Resources.Settings },
  handler: Effect.gen(function*() {
    const body = yield* validBody(updateSettingsBody)
    const patch = withoutUndefined({
      siteName: body.site_name,
      siteLogo: body.site_logo,
      siteUrl: body.site_url,
      gatewayName: body.gateway_name,
      gatewayDescription: body.gateway_description,
      signatureRequired: body.signature_required,
      signatureToleranceSeconds: body.signature_tolerance_seconds,
      rateLimitPerMinute: body.rate_limit_per_minute
    })
    return settingsJson(yield* (yield* SiteSettingsService).update(patch))
  })
})

/** docs/admin-api.md, settings. */
export const adminSettingsEndpoints = [get, update] as const

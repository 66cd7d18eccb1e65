import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { SiteSettingsService } from "../../../core/settings/site-settings-service.js"
import { adminEndpoint } from "../endpoint/admin-endpoint.js"
import { ok } from "../response/api-response.js"
import { withoutUndefined } from "../request/body-fields.js"
import { updateSettingsBody } from "../contract/admin-contracts.js"
import { validBody } from "../contract/read-body.js"
import { settingsJson } from "../response/serializers.js"

export const adminSettingsRoutes = HttpRouter.empty.pipe(
  HttpRouter.get("/settings", adminEndpoint(Effect.map(Effect.flatMap(SiteSettingsService, (s) => s.current), (s) => ok(settingsJson(s))))),
  HttpRouter.patch(
    "/settings",
    adminEndpoint(Effect.gen(function*() {
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
      return ok(settingsJson(yield* (yield* SiteSettingsService).update(patch)))
    }))
  )
)

import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { SiteSettingsService } from "../../../core/settings/site-settings-service.js"
import { adminEndpoint } from "../admin-endpoint.js"
import { ok } from "../api-response.js"
import { BodyFields, withoutUndefined } from "../body-fields.js"
import { jsonObjectBody } from "../request-body.js"
import { settingsJson } from "../serializers.js"

const HTTP_URL = { max: 255 } as const

export const adminSettingsRoutes = HttpRouter.empty.pipe(
  HttpRouter.get("/settings", adminEndpoint(Effect.map(Effect.flatMap(SiteSettingsService, (s) => s.current), (s) => ok(settingsJson(s))))),
  HttpRouter.patch(
    "/settings",
    adminEndpoint(Effect.gen(function*() {
      const fields = new BodyFields(yield* jsonObjectBody)
      const patch = {
        siteName: fields.string("site_name", { max: 100, min: 1 }),
        siteLogo: fields.url("site_logo", HTTP_URL),
        siteUrl: fields.url("site_url", HTTP_URL),
        gatewayName: fields.string("gateway_name", { max: 100, min: 1 }),
        gatewayDescription: fields.string("gateway_description", { max: 500 }),
        signatureRequired: fields.boolean("signature_required"),
        signatureToleranceSeconds: fields.integer("signature_tolerance_seconds", { min: 1, max: 86_400 }),
        rateLimitPerMinute: fields.integer("rate_limit_per_minute", { min: 1, max: 1_000_000 })
      }
      const valid = yield* fields.done(() => withoutUndefined(patch))
      return ok(settingsJson(yield* (yield* SiteSettingsService).update(valid)))
    }))
  )
)

import { HttpRouter, HttpServerResponse } from "@effect/platform"
import { Effect } from "effect"
import { SiteSettingsService } from "../../../core/settings/site-settings-service.js"
import { StoreHealth } from "../../../core/shared/store-health.js"
import { ok } from "../api-response.js"
import { Health, type SiteInfo } from "../contract/payment-resources.js"
import { merchantEndpoint } from "../merchant-endpoint.js"
import { StoreUnavailable } from "../edge-errors.js"
import { errorHttpResponse } from "../responses.js"

/** Spec 2.7 and 9.2: branding from settings, fixed feature and environment labels. */
const siteInfo = Effect.map(Effect.flatMap(SiteSettingsService, (settings) => settings.current), (settings) =>
  ok({
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
    status: "active"
  } satisfies typeof SiteInfo.Type))

export const siteInfoRoutes = HttpRouter.empty.pipe(HttpRouter.get("/api/v1/site-info", merchantEndpoint(siteInfo)))

/** Unauthenticated: 200 while the store answers, 503 when it does not. */
export const healthRoutes = HttpRouter.empty.pipe(
  HttpRouter.get(
    "/healthz",
    Effect.flatMap(StoreHealth, (health) => health.ping).pipe(
      Effect.as(HttpServerResponse.unsafeJson({ status: "ok" } satisfies typeof Health.Type)),
      Effect.catchAll(() => errorHttpResponse(new StoreUnavailable()))
    )
  )
)

import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Effect from "effect/Effect"
import { dashboardOperation, dashboardRouter } from "../dashboard/dashboard-page.js"
import { htmlAnswer } from "../dashboard/dashboard-response.js"
import { messagePage } from "../dashboard/layout.js"
import { dashboardPath } from "../dashboard/visitor.js"
import { dashboardApiConfigPages } from "./dashboard-api-config-routes.js"
import { dashboardAssetPages } from "./dashboard-asset-routes.js"
import { dashboardAuditPages } from "./dashboard-audit-routes.js"
import { dashboardDeveloperPages } from "./dashboard-developer-routes.js"
import { dashboardOverviewPages } from "./dashboard-overview-routes.js"
import { dashboardPaymentPages } from "./dashboard-payment-routes.js"
import { dashboardSignInPages } from "./dashboard-sign-in-routes.js"
import { dashboardSubscriptionPages } from "./dashboard-subscription-routes.js"
import { dashboardWebhookPages } from "./dashboard-webhook-routes.js"

/** Every page and form of the merchant dashboard, declared once: the router and the OpenAPI document read this. */
export const dashboardPages = [
  ...dashboardAssetPages,
  ...dashboardSignInPages,
  ...dashboardOverviewPages,
  ...dashboardPaymentPages,
  ...dashboardSubscriptionPages,
  ...dashboardWebhookPages,
  ...dashboardDeveloperPages,
  ...dashboardApiConfigPages,
  ...dashboardAuditPages
] as const

export const dashboardOperations = dashboardPages.map(dashboardOperation)

/** A dashboard address that names no page: a page saying so, not the API's JSON. */
const noSuchPage = Effect.map(dashboardPath, (home) =>
  htmlAnswer(404, messagePage(home, "No such page", "The dashboard has no page at this address.", { href: home, label: "Back to the dashboard" })))

/** The merchant dashboard: every page under {base}/dashboard, server-rendered from the API's use cases. */
export const dashboardRoutes = HttpRouter.concat(
  dashboardRouter(dashboardPages),
  HttpRouter.empty.pipe(HttpRouter.get("/dashboard/*", noSuchPage))
)

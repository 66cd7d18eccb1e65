import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { htmlAnswer } from "../dashboard/dashboard-response.js"
import { messagePage } from "../dashboard/layout.js"
import { dashboardPath } from "../dashboard/visitor.js"
import { dashboardApiConfigRoutes } from "./dashboard-api-config-routes.js"
import { dashboardAssetRoutes } from "./dashboard-asset-routes.js"
import { dashboardAuditRoutes } from "./dashboard-audit-routes.js"
import { dashboardDeveloperRoutes } from "./dashboard-developer-routes.js"
import { dashboardOverviewRoutes } from "./dashboard-overview-routes.js"
import { dashboardPaymentRoutes } from "./dashboard-payment-routes.js"
import { dashboardSignInRoutes } from "./dashboard-sign-in-routes.js"
import { dashboardSubscriptionRoutes } from "./dashboard-subscription-routes.js"
import { dashboardWebhookRoutes } from "./dashboard-webhook-routes.js"

/** A dashboard address that names no page: a page saying so, not the API's JSON. */
const noSuchPage = Effect.map(dashboardPath, (home) =>
  htmlAnswer(404, messagePage(home, "No such page", "The dashboard has no page at this address.", { href: home, label: "Back to the dashboard" })))

/** The merchant dashboard: every page under {base}/dashboard, server-rendered from the API's use cases. */
export const dashboardRoutes = HttpRouter.concatAll(
  dashboardAssetRoutes,
  dashboardSignInRoutes,
  dashboardOverviewRoutes,
  dashboardPaymentRoutes,
  dashboardSubscriptionRoutes,
  dashboardWebhookRoutes,
  dashboardDeveloperRoutes,
  dashboardApiConfigRoutes,
  dashboardAuditRoutes,
  HttpRouter.empty.pipe(HttpRouter.get("/dashboard/*", noSuchPage))
)

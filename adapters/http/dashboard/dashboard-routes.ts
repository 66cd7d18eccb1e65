import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Effect from "effect/Effect"
import { dashboardOperation } from "./page-declaration.js"
import { dashboardRouter } from "./dashboard-router.js"
import { htmlAnswer } from "./dashboard-response.js"
import { messagePage } from "./layout.js"
import { dashboardPath } from "./visitor.js"
import { dashboardApiConfigPages } from "./api-config/api-config-routes.js"
import { dashboardAssetPages } from "./assets/asset-routes.js"
import { dashboardBalancePages } from "./balances/balance-routes.js"
import { dashboardAuditPages } from "./audit/audit-routes.js"
import { dashboardDisputePages } from "./disputes/dispute-routes.js"
import { dashboardDeveloperPages } from "./developers/developer-routes.js"
import { dashboardOverviewPages } from "./overview/overview-routes.js"
import { dashboardPaymentPages } from "./payments/payment-routes.js"
import { dashboardPayoutDestinationPages } from "./payouts/destination-routes.js"
import { dashboardPayoutPages } from "./payouts/payout-routes.js"
import { dashboardSandboxMailPages } from "./sandbox-mail/sandbox-mail-routes.js"
import { dashboardSignInPages } from "./sign-in/sign-in-routes.js"
import { dashboardRequestLogPages } from "./request-logs/request-log-routes.js"
import { dashboardPlanChangePages } from "./subscriptions/plan-change-routes.js"
import { dashboardSubscriptionPages } from "./subscriptions/subscription-routes.js"
import { dashboardInvoiceDocumentPages } from "./subscriptions/invoice-document-routes.js"
import { dashboardBillingSettingsPages } from "./subscriptions/billing-settings-routes.js"
import { dashboardTeamPages } from "./team/team-routes.js"
import { dashboardTestClockPages } from "./test-clocks/test-clock-routes.js"
import { dashboardWebhookPages } from "./webhooks/webhook-routes.js"

/** Every page and form of the merchant dashboard, declared once: the router and the OpenAPI document read this. */
export const dashboardPages = [
  ...dashboardAssetPages,
  ...dashboardSignInPages,
  ...dashboardOverviewPages,
  ...dashboardPaymentPages,
  ...dashboardBalancePages,
  ...dashboardPayoutPages,
  ...dashboardPayoutDestinationPages,
  ...dashboardDisputePages,
  ...dashboardSubscriptionPages,
  ...dashboardInvoiceDocumentPages,
  ...dashboardTestClockPages,
  ...dashboardPlanChangePages,
  ...dashboardBillingSettingsPages,
  ...dashboardWebhookPages,
  ...dashboardDeveloperPages,
  ...dashboardRequestLogPages,
  ...dashboardApiConfigPages,
  ...dashboardAuditPages,
  ...dashboardTeamPages,
  ...dashboardSandboxMailPages
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

import { HttpRouter } from "@effect/platform"
import { Cause, Effect } from "effect"
import { withUnreadBodyDrained } from "./body-drain.js"
import { RouteNotFound } from "./edge-errors.js"
import { errorHttpResponse } from "./responses.js"
import { adminClockRoutes } from "./routes/admin-clock-routes.js"
import { adminGatewayRoutes } from "./routes/admin-gateway-routes.js"
import { checkoutRoutes } from "./routes/checkout-routes.js"
import { paymentRoutes } from "./routes/payment-routes.js"
import { refundRoutes } from "./routes/refund-routes.js"
import { adminMerchantRoutes } from "./routes/admin-merchant-routes.js"
import { adminSettingsRoutes } from "./routes/admin-settings-routes.js"
import { adminWalletRoutes } from "./routes/admin-wallet-routes.js"
import { adminWebhookRoutes } from "./routes/admin-webhook-routes.js"
import { healthRoutes, siteInfoRoutes } from "./routes/site-info-routes.js"

const adminRoutes = HttpRouter.concatAll(
  adminMerchantRoutes,
  adminWalletRoutes,
  adminSettingsRoutes,
  adminGatewayRoutes,
  adminClockRoutes,
  adminWebhookRoutes
)

export const router = HttpRouter.concatAll(siteInfoRoutes, healthRoutes, paymentRoutes, refundRoutes, checkoutRoutes).pipe(
  HttpRouter.mount("/admin/v1", adminRoutes)
)

/**
 * The whole HTTP surface as one app. Unknown routes answer the JSON 404 body; anything that
 * escaped every handler (a defect) is logged and answered as a bare 500, never with its details.
 * Unread request bodies are drained before answering, so the answer is not lost to a reset.
 */
export const httpApp = router.pipe(
  Effect.catchTag("RouteNotFound", () => errorHttpResponse(new RouteNotFound())),
  Effect.catchAllCause((cause) =>
    Cause.isInterruptedOnly(cause)
      ? Effect.failCause(cause)
      : Effect.zipRight(Effect.logError("request failed unexpectedly", cause), errorHttpResponse(cause))),
  withUnreadBodyDrained
)

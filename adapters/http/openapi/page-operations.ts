import { checkoutOperations } from "../checkout/checkout-routes.js"
import { customerPortalOperations } from "../customer-portal/portal-routes.js"
import { gatewayIdInPath } from "../contract/parameters.js"
import { Health, Readiness } from "../contract/payment-resources.js"
import { dashboardOperations } from "../dashboard/dashboard-routes.js"
import { HTML, type Operation } from "./operation.js"

/** The customer's pages, the gateways' notification address, the host's own routes and the merchant dashboard: no merchant signature. */
export const pageOperations: ReadonlyArray<Operation> = [
  ...checkoutOperations,
  ...customerPortalOperations,
  {
    method: "post",
    path: "/gateways/{id}/notify",
    operationId: "gatewayNotification",
    summary: "A gateway's server-to-server notification",
    description: "The raw body and headers go to the gateway record's plugin, which verifies its gateway's own signature; its reply goes back as is. `?environment=` names the keys the payment used.",
    tag: "Gateway notifications",
    security: "none",
    parameters: [gatewayIdInPath],
    success: { status: 200, description: "The plugin's reply: status, headers and body are the plugin's.", contentType: "text/plain" },
    errors: ["NotificationTargetUnknown", "PluginCallFailed", "UnknownGatewayPlugin", "BodyTooLarge", "StorageError"]
  },
  {
    method: "get",
    path: "/healthz",
    operationId: "health",
    summary: "Whether the store answers",
    tag: "Host",
    security: "none",
    success: { status: 200, description: "The store answered.", schema: Health },
    errors: ["StoreUnavailable"]
  },
  {
    method: "get",
    path: "/readyz",
    operationId: "readiness",
    summary: "Whether this host should be sent traffic",
    description: "200 while the store answers within 2 s with every migration this host needs applied; 503 with the reason " +
      "(`not_ready`) otherwise, and from the moment shutdown begins. Liveness stays `/healthz`.",
    tag: "Host",
    security: "none",
    success: { status: 200, description: "Ready; a 503 carries the same shape with `status: not_ready` and `reason`.", schema: Readiness },
    others: [{ status: 503, description: "Not ready: `{ status: not_ready, reason }`.", contentType: "application/json" }]
  },
  {
    method: "get",
    path: "/metrics",
    operationId: "metrics",
    summary: "Metrics for a Prometheus scrape",
    description: "Request counts and latency by route template, payments, refunds, webhook attempts, queue depth and delay, " +
      "scheduler ticks and lag, gateway plugin calls, and the Node process figures, in the Prometheus text format. " +
      "Behind the admin token unless the operator made it public (`METRICS_PUBLIC=true`); absent (404) when metrics are off.",
    tag: "Host",
    security: "admin",
    success: { status: 200, description: "The Prometheus text exposition (version 0.0.4).", contentType: "text/plain" }
  },
  {
    method: "get",
    path: "/openapi.json",
    operationId: "openApiDocument",
    summary: "This document",
    tag: "Host",
    security: "none",
    success: { status: 200, description: "The OpenAPI 3.1 document, with this host's base address as its server.", contentType: "application/json" }
  },
  {
    method: "get",
    path: "/docs",
    operationId: "apiReference",
    summary: "The API reference page",
    tag: "Host",
    security: "none",
    success: { status: 200, description: "An HTML page rendering this document; it loads nothing from other hosts.", contentType: HTML }
  },
  {
    method: "get",
    path: "/docs/scalar.js",
    operationId: "apiReferenceScript",
    summary: "The reference page's renderer",
    tag: "Host",
    security: "none",
    success: { status: 200, description: "The standalone bundle of @scalar/api-reference, served by the kit itself.", contentType: "application/javascript" }
  },
  ...dashboardOperations
]

import * as Schema from "effect/Schema"
import { gatewayIdInPath, type Parameter } from "../contract/parameters.js"
import { Health, Readiness } from "../contract/payment-resources.js"
import { dashboardOperations } from "../dashboard/dashboard-routes.js"
import { HTML, type Operation } from "./operation.js"

const token: Parameter = {
  name: "token",
  in: "path",
  required: true,
  description: "The signed checkout token of a `payment_url`.",
  schema: Schema.String.pipe(Schema.pattern(/^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/))
}

const gatewayInReturn: Parameter = { ...gatewayIdInPath, name: "gateway_id", description: "The gateway record the customer paid with." }

const SETTLED = { status: 303, description: "The payment is settled: back to the merchant's success or cancel redirect, with trx_id and ref_trx in its query." }
/** Inside a frame of an origin the merchant listed, the settled payment ends on the kit's page instead, which tells the parent. */
const SETTLED_IN_FRAME = {
  status: 200,
  description: "Settled, inside a frame (`Sec-Fetch-Dest: iframe`) of a merchant that lists `checkout_frame_ancestors`: the last page, whose script " +
    "posts `{ type: \"merchant-payments.checkout\", status, trx_id }` to the parent (to the listed origins only).",
  contentType: HTML
}
const EXPIRED = { status: 410, description: "The link expired or its invoice was cancelled.", contentType: HTML }
const UNKNOWN = { status: 404, description: "No such payment link.", contentType: HTML }
const UNAVAILABLE = { status: 403, description: "The merchant cannot accept payments now.", contentType: HTML }

const checkout = (operation: Omit<Operation, "tag" | "security">): Operation => ({ ...operation, tag: "Hosted checkout", security: "none" })

/** The customer's pages, the gateways' notification address, the host's own routes and the merchant dashboard: no merchant signature. */
export const pageOperations: ReadonlyArray<Operation> = [
  checkout({
    method: "get",
    path: "/checkout/{token}",
    operationId: "showCheckout",
    summary: "The hosted checkout page",
    description: "The amount, the link's expiry and the eligible gateways, as plain HTML (no JavaScript needed); after a gateway declined, why. " +
      "Framed only by the origins the merchant lists (`frame-ancestors`), else by nobody.",
    parameters: [token],
    success: { status: 200, description: "The checkout page (or a settled payment's last page inside a listed frame).", contentType: HTML },
    others: [SETTLED, UNKNOWN, EXPIRED, UNAVAILABLE]
  }),
  ...(["pay", "cancel"] as const).map((step) =>
    checkout({
      method: "get",
      path: `/checkout/{token}/${step}`,
      operationId: step === "pay" ? "reopenCheckoutPay" : "reopenCheckoutCancel",
      summary: `The ${step} step opened as a page (a reload, the back button)`,
      description: "Back to the session's own page, which says where the payment stands; a GET never pays or cancels.",
      parameters: [token],
      success: { status: 303, description: "To `/checkout/{token}`." }
    })),
  checkout({
    method: "get",
    path: "/checkout/assets/embed.js",
    operationId: "checkoutScript",
    summary: "The checkout's one script: tells a framing page how the payment ended",
    success: { status: 200, description: "JavaScript; 304 when the ETag matches.", contentType: "text/javascript" }
  }),
  checkout({
    method: "post",
    path: "/checkout/{token}/pay",
    operationId: "payCheckout",
    summary: "Pay with a gateway",
    description: "A form post (`gateway_id`); the gateway's plugin redirects or shows its own page.",
    parameters: [token],
    success: { status: 303, description: "To the gateway's own checkout." },
    others: [
      { status: 200, description: "The gateway's page, inside the kit's.", contentType: HTML },
      { status: 400, description: "No such gateway is offered for this payment.", contentType: HTML },
      { status: 502, description: "The gateway is unavailable right now: choose another.", contentType: HTML },
      UNKNOWN,
      EXPIRED,
      UNAVAILABLE
    ]
  }),
  checkout({
    method: "post",
    path: "/checkout/{token}/cancel",
    operationId: "cancelCheckout",
    summary: "Cancel the payment",
    parameters: [token],
    success: SETTLED,
    others: [SETTLED_IN_FRAME, UNKNOWN, EXPIRED, UNAVAILABLE]
  }),
  ...(["get", "post"] as const).map((method) =>
    checkout({
      method,
      path: "/checkout/{token}/return/{gateway_id}",
      operationId: method === "get" ? "returnFromGateway" : "returnFromGatewayByPost",
      summary: "Where a gateway sends the customer back",
      description: "The plugin reads the query or form; the core completes the payment once, whatever the order of returns and notifications.",
      parameters: [token, gatewayInReturn],
      success: SETTLED,
      others: [
        SETTLED_IN_FRAME,
        { status: 303, description: "The gateway declined this try: back to `/checkout/{token}`, which says so; the payment stays open for another." },
        { status: 202, description: "The payment is still being processed, or needs a check.", contentType: HTML },
        { status: 400, description: "The gateway's response could not be verified.", contentType: HTML },
        UNKNOWN,
        EXPIRED,
        UNAVAILABLE
      ]
    })),
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

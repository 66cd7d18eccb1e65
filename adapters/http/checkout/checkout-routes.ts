import * as Schema from "effect/Schema"
import { gatewayIdInPath } from "../contract/parameters.js"
import { HTML, type Operation } from "../openapi/operation.js"
import { type PageRoute, type PatternedParameter, pageOperation, pageRouter } from "../pages/page-route.js"
import { staticAsset } from "../response/static-asset.js"
import { EMBED_SCRIPT_PATH, noSuchPage } from "./checkout-flow.js"
import { cancelCheckoutStep, payCheckout, reopenCheckout, returnFromGateway, showCheckout } from "./checkout-steps.js"
import { CHECKOUT_EMBED_SCRIPT } from "./embed-script.js"

/** A signed checkout token's shape; anything else under /checkout/ names no page. */
const TOKEN_SHAPE = /^[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/

// Patterned: a signed token is longer than the router takes (PatternedParameter), so these pages are matched by shape.
const token: PatternedParameter = {
  name: "token",
  in: "path",
  required: true,
  description: "The signed checkout token of a `payment_url`.",
  schema: Schema.String.pipe(Schema.pattern(TOKEN_SHAPE)),
  pattern: TOKEN_SHAPE
}

const gatewayInReturn: PatternedParameter = {
  name: "gateway_id",
  in: "path",
  required: true,
  description: "The gateway record the customer paid with.",
  schema: gatewayIdInPath.schema,
  pattern: /^\d{1,15}$/
}

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

/** Every page, form and asset of hosted checkout: its routes and its entries in the OpenAPI document. */
const checkoutPages = [
  {
    method: "get",
    path: "/checkout/{token}",
    operationId: "showCheckout",
    summary: "The hosted checkout page",
    description: "The amount, the link's expiry and the eligible gateways, as plain HTML (no JavaScript needed); after a gateway declined, why. " +
      "Framed only by the origins the merchant lists (`frame-ancestors`), else by nobody.",
    parameters: [token],
    success: { status: 200, description: "The checkout page (or a settled payment's last page inside a listed frame).", contentType: HTML },
    others: [SETTLED, UNKNOWN, EXPIRED, UNAVAILABLE],
    handler: showCheckout
  },
  ...(["pay", "cancel"] as const).map((step) => ({
    method: "get" as const,
    path: `/checkout/{token}/${step}`,
    operationId: step === "pay" ? "reopenCheckoutPay" : "reopenCheckoutCancel",
    summary: `The ${step} step opened as a page (a reload, the back button)`,
    description: "Back to the session's own page, which says where the payment stands; a GET never pays or cancels.",
    parameters: [token],
    success: { status: 303, description: "To `/checkout/{token}`." },
    handler: reopenCheckout
  })),
  {
    method: "get",
    path: EMBED_SCRIPT_PATH,
    operationId: "checkoutScript",
    summary: "The checkout's one script: tells a framing page how the payment ended",
    success: { status: 200, description: "JavaScript; 304 when the ETag matches.", contentType: "text/javascript" },
    handler: staticAsset(CHECKOUT_EMBED_SCRIPT, "text/javascript; charset=utf-8")
  },
  {
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
    ],
    handler: payCheckout
  },
  {
    method: "post",
    path: "/checkout/{token}/cancel",
    operationId: "cancelCheckout",
    summary: "Cancel the payment",
    parameters: [token],
    success: SETTLED,
    others: [SETTLED_IN_FRAME, UNKNOWN, EXPIRED, UNAVAILABLE],
    handler: cancelCheckoutStep
  },
  ...(["get", "post"] as const).map((method) => ({
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
    ],
    handler: returnFromGateway
  }))
] satisfies ReadonlyArray<PageRoute>

/** Hosted checkout's routes; any other address under /checkout/ is its own "not found" page, in the customer's language. */
export const checkoutRoutes = pageRouter(checkoutPages, { unmatched: noSuchPage })

/** The customer's pages: no merchant signature. */
export const checkoutOperations: ReadonlyArray<Operation> = checkoutPages.map(pageOperation({ tag: "Hosted checkout", security: () => "none" }))

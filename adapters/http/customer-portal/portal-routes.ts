import * as Schema from "effect/Schema"
import type { Parameter } from "../contract/parameters.js"
import { HTML, type Operation } from "../openapi/operation.js"
import { type PageRoute, pageOperation, pageRouter } from "../pages/page-route.js"
import { PORTAL_LINK_PREFIX, PORTAL_PATH } from "./portal-paths.js"
import {
  cancelPortalSubscription, finishPortalMethodSetup, openPortalLink, payPortalInvoice, portalInvoiceDocument, showPortalHome, showPortalSubscription, updatePortalPaymentMethod
} from "./portal-steps.js"

const pathText = (name: string, description: string): Parameter => ({ name, in: "path", required: true, description, schema: Schema.String })

const token = pathText("token", "The single-use token of a `url` from POST /api/v1/customer-portal-sessions.")
const subscriptionId = pathText("subscription_id", "One of the customer's subscriptions.")
const setupId = pathText("setup_id", "A setup session the portal started (its id is in the return address it gave the gateway).")
const invoiceId = pathText("invoice_id", "One of the customer's invoices.")

const ENDED = { status: 401, description: "No portal session (none, or its hour is over): the customer opens the portal again from the merchant.", contentType: HTML }
const NOT_THEIRS = { status: 404, description: "No such subscription or invoice among the customer's (another customer's reads the same).", contentType: HTML }
const FORGED = { status: 403, description: "The form's token is not this portal session's.", contentType: HTML }
const BACK = { status: 303, description: "Back to the portal, which says what happened." }

/** The customer portal's pages and forms: their routes and their entries in the OpenAPI document. */
const portalPages = [
  {
    method: "get",
    path: `${PORTAL_LINK_PREFIX}/{token}`,
    operationId: "openCustomerPortal",
    summary: "A portal link's one visit",
    description: "Opens a one-hour portal session (an HttpOnly cookie scoped to the portal's path) and redirects to the portal without the token. " +
      "A second visit of the same link, or one after its hour, is refused with a page saying so.",
    parameters: [token],
    success: { status: 303, description: "To the portal, with its session cookie." },
    others: [
      { status: 410, description: "The link was already used, or expired.", contentType: HTML },
      { status: 404, description: "No such link.", contentType: HTML }
    ],
    handler: openPortalLink
  },
  {
    method: "get",
    path: PORTAL_PATH,
    operationId: "showCustomerPortal",
    summary: "The customer's subscriptions with the merchant",
    description: "Each subscription's status, amount, cycle, current period and next billing, with its newest invoices; Pay on an unpaid invoice, " +
      "Cancel at period end when the merchant allows it, and the way back to the merchant.",
    success: { status: 200, description: "The portal page.", contentType: HTML },
    others: [ENDED],
    handler: showPortalHome
  },
  {
    method: "get",
    path: `${PORTAL_PATH}/subscriptions/{subscription_id}`,
    operationId: "showCustomerPortalSubscription",
    summary: "One of the customer's subscriptions with its invoices",
    parameters: [subscriptionId],
    success: { status: 200, description: "The subscription's page.", contentType: HTML },
    others: [ENDED, NOT_THEIRS],
    handler: showPortalSubscription
  },
  {
    method: "post",
    path: `${PORTAL_PATH}/invoices/{invoice_id}/pay`,
    operationId: "payCustomerPortalInvoice",
    summary: "Pay an unpaid invoice",
    description: "A form post (with the session's form token). As the API's renew: the invoice's open checkout, or a fresh one when it lapsed.",
    parameters: [invoiceId],
    success: { status: 303, description: "To the invoice's hosted checkout; back to the portal when there is nothing to pay." },
    others: [ENDED, FORGED, NOT_THEIRS],
    handler: payPortalInvoice
  },
  {
    method: "get",
    path: `${PORTAL_PATH}/invoices/{invoice_id}/pdf`,
    operationId: "customerPortalInvoicePdf",
    summary: "One of the customer's invoices as a PDF",
    description: "`?kind=receipt` answers a paid invoice's payment receipt instead. Another customer's invoice, or a receipt of an unpaid one, reads as not found.",
    parameters: [invoiceId],
    success: { status: 200, description: "The PDF, as an attachment.", contentType: "application/pdf" },
    others: [ENDED, NOT_THEIRS],
    handler: portalInvoiceDocument
  },
  {
    method: "post",
    path: `${PORTAL_PATH}/subscriptions/{subscription_id}/cancel`,
    operationId: "cancelCustomerPortalSubscription",
    summary: "Cancel at the end of the paid period",
    description: "A form post (with the session's form token), refused when the merchant's `portal_cancellation` setting is off. As the API's cancel with `at_period_end`.",
    parameters: [subscriptionId],
    success: BACK,
    others: [ENDED, FORGED, NOT_THEIRS],
    handler: cancelPortalSubscription
  },
  {
    method: "post",
    path: `${PORTAL_PATH}/subscriptions/{subscription_id}/payment-method`,
    operationId: "updateCustomerPortalPaymentMethod",
    summary: "Update the saved payment method",
    description: "A form post (with the session's form token), offered on a subscription with a saved method. With an open invoice, sends the " +
      "customer to its hosted checkout, where paying saves the card used for renewals. With nothing to pay, starts a setup-only session (no " +
      "money moves) at the gateway the method was saved through, when its plugin offers one: the gateway's page, or its form inside the " +
      "kit's; otherwise back to the portal, which says the card can be changed at the next payment.",
    parameters: [subscriptionId],
    success: { status: 303, description: "To the open invoice's hosted checkout or the gateway's setup page; back to the portal when neither can be had." },
    others: [{ status: 200, description: "The gateway's setup form, inside the kit's page.", contentType: HTML }, ENDED, FORGED, NOT_THEIRS],
    handler: updatePortalPaymentMethod
  },
  ...(["get", "post"] as const).map((method) => ({
    method,
    path: `${PORTAL_PATH}/method-setups/{setup_id}/return`,
    operationId: method === "get" ? "returnFromCustomerPortalMethodSetup" : "returnFromCustomerPortalMethodSetupByPost",
    summary: "Where a gateway sends the customer back from a setup session",
    description: "In the customer's portal session, for one of their own subscriptions. A verified saved method replaces the subscription's " +
      "(renewals charge it); a session is used once and refused after its hour.",
    parameters: [setupId],
    success: { status: 303, description: "Back to the portal, which says whether the payment method changed." },
    others: [ENDED, NOT_THEIRS],
    handler: finishPortalMethodSetup
  }))
] satisfies ReadonlyArray<PageRoute>

export const customerPortalRoutes = pageRouter(portalPages)

/** The customer's pages: no merchant signature (the link, then the session cookie). */
export const customerPortalOperations: ReadonlyArray<Operation> = portalPages.map(pageOperation({ tag: "Customer portal", security: () => "none" }))

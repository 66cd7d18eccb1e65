import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import { invoiceDocument } from "../../../../core/subscriptions/invoice-document.js"
import { DASHBOARD_HEADERS, htmlAnswer } from "../dashboard-response.js"
import { linkTo, messagePage, type PageFrame } from "../layout.js"
import { CurrentFrame, requestQuery, scopeOf } from "../page-frame.js"
import { dashboardRoute, HTML_PAGE, pathText } from "../page-declaration.js"

/** Where an invoice's document is, for the subscription page's links: `?kind=receipt` for a paid invoice's receipt. */
export const invoiceDocumentPath = (subscriptionId: string, invoiceId: string) =>
  `/subscriptions/${encodeURIComponent(subscriptionId)}/invoices/${encodeURIComponent(invoiceId)}/pdf`

const notHere = (frame: PageFrame, subscriptionId: string, title: string, text: string, status: number) =>
  htmlAnswer(status, messagePage(frame.home, title, text, {
    href: linkTo(frame, subscriptionId === "" ? "/subscriptions" : `/subscriptions/${encodeURIComponent(subscriptionId)}`),
    label: subscriptionId === "" ? "All subscriptions" : "Back to the subscription"
  }))

/**
 * The API's invoice document (core invoiceDocument), for the signed-in merchant: another merchant's
 * or environment's invoice is a 404 page as an unknown one is; a receipt of an unpaid invoice a 409 page.
 */
const pdf = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const params = yield* HttpRouter.params
  const subscriptionId = params["subscription_id"] ?? ""
  const kindText = (yield* requestQuery).get("kind")
  if (kindText !== null && kindText !== "invoice" && kindText !== "receipt") {
    return notHere(frame, subscriptionId, "No such document", "An invoice has two documents: the invoice and, once paid, its receipt.", 400)
  }
  return yield* invoiceDocument(scopeOf(frame), subscriptionId, params["invoice_id"] ?? "", kindText ?? "invoice").pipe(
    Effect.map((document) =>
      HttpServerResponse.uint8Array(document.bytes, {
        contentType: "application/pdf",
        headers: { ...DASHBOARD_HEADERS, "content-disposition": `attachment; filename="${document.filename}"` }
      })),
    Effect.catchTags({
      SubscriptionNotFound: () => Effect.succeed(notHere(frame, "", "No such subscription", "There is no subscription with that id here.", 404)),
      InvoiceNotFound: () => Effect.succeed(notHere(frame, subscriptionId, "No such invoice", "This subscription has no invoice with that id.", 404)),
      InvoiceNotPaid: () =>
        Effect.succeed(notHere(frame, subscriptionId, "No receipt yet", "Only a paid invoice has a receipt; its invoice PDF is there already.", 409))
    })
  )
})

export const dashboardInvoiceDocumentPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/subscriptions/{subscription_id}/invoices/{invoice_id}/pdf", operationId: "dashboardInvoicePdf", view: "member",
    summary: "An invoice, or with `kind=receipt` a paid invoice's receipt, as a PDF",
    parameters: [pathText("subscription_id", "The subscription's id."), pathText("invoice_id", "The invoice's id.")],
    success: { status: 200, description: "The PDF, as an attachment.", contentType: "application/pdf" },
    others: [
      { status: 400, description: "No such kind of document.", contentType: HTML_PAGE },
      { status: 404, description: "No such subscription or invoice for this merchant in this environment.", contentType: HTML_PAGE },
      { status: 409, description: "A receipt of an invoice not paid.", contentType: HTML_PAGE }
    ],
    handler: pdf
  })
] as const

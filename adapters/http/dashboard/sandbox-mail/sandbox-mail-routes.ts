import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { findSandboxMail, listSandboxMail } from "../../../../core/mail/sandbox-mail.js"
import { raw } from "../../pages/html.js"
import { DashboardAnswer, DASHBOARD_HEADERS, htmlAnswer } from "../dashboard-response.js"
import { linkTo, messagePage, type PageFrame } from "../layout.js"
import { dashboardRoute, HTML_PAGE, pathText } from "../page-declaration.js"
import { CurrentFrame } from "../page-frame.js"
import { sandboxMailListPage, sandboxMailPage } from "./sandbox-mail-pages.js"

const LIST_LIMIT = 50

const list = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const mails = frame.environment === "sandbox" ? yield* listSandboxMail(frame.visitor.merchant.id, LIST_LIMIT) : []
  return htmlAnswer(200, sandboxMailListPage(frame, mails))
})

/** Another merchant's mail, a production one, or none: simply not there. */
const mailMissing = (frame: PageFrame) =>
  new DashboardAnswer(htmlAnswer(404, messagePage(frame.home, "No such mail", "There is no sandbox mail with that id here.", {
    href: linkTo(frame, "/sandbox-mail"),
    label: "All sandbox mail"
  })))

const sandboxMail = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const id = (yield* HttpRouter.params)["mail_id"] ?? ""
  const found = yield* findSandboxMail(frame.visitor.merchant.id, id)
  if (Option.isNone(found)) return yield* Effect.fail(mailMissing(frame))
  return found.value
})

// The view frames the HTML part from this site, which the dashboard's policy otherwise forbids.
const VIEW_HEADERS = { "content-security-policy": `${DASHBOARD_HEADERS["content-security-policy"]}; frame-src 'self'` }

/**
 * The HTML part on its own: the mail's inline styles allowed, nothing else (no script, no fetch),
 * sandboxed, and framed only by the dashboard.
 */
const HTML_PART_HEADERS = {
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:; frame-ancestors 'self'; sandbox",
  "x-frame-options": "SAMEORIGIN"
}

const detail = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  return htmlAnswer(200, sandboxMailPage(frame, yield* sandboxMail), VIEW_HEADERS)
})

const htmlPart = Effect.gen(function*() {
  const markup = (yield* sandboxMail).rendered.html
  // The templates' own output: every value in it was escaped by html`...` in adapters/mail/mail-layout.ts.
  return htmlAnswer(200, raw(markup), HTML_PART_HEADERS)
})

export const dashboardSandboxMailPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/sandbox-mail", operationId: "dashboardSandboxMail", view: "member",
    summary: "The sandbox's mail, newest first: invoices, receipts, reminders and notices kept instead of sent",
    description: "Sandbox only: in production the page says where mail goes instead.",
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    handler: list
  }),
  dashboardRoute({
    method: "get", path: "/dashboard/sandbox-mail/{mail_id}", operationId: "dashboardSandboxMailMessage", view: "member",
    summary: "A sandbox mail: its facts, its plain-text part and its HTML part",
    parameters: [pathText("mail_id", "The mail's id.")],
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    others: [{ status: 404, description: "No such sandbox mail here.", contentType: HTML_PAGE }],
    handler: detail
  }),
  dashboardRoute({
    method: "get", path: "/dashboard/sandbox-mail/{mail_id}/html", operationId: "dashboardSandboxMailHtml", view: "member",
    summary: "A sandbox mail's HTML part on its own, as a mail client would show it",
    parameters: [pathText("mail_id", "The mail's id.")],
    success: { status: 200, description: "The HTML part.", contentType: HTML_PAGE },
    others: [{ status: 404, description: "No such sandbox mail here.", contentType: HTML_PAGE }],
    handler: htmlPart
  })
] as const

import * as Effect from "effect/Effect"
import { DEFAULT_AUDIT_LIMIT, listAudit } from "../../../../core/audit/list-audit.js"
import { auditPage } from "./audit-page.js"
import { DashboardAnswer, htmlAnswer } from "../dashboard-response.js"
import { linkTo, messagePage } from "../layout.js"
import { CurrentFrame, requestQuery } from "../page-frame.js"
import { dashboardRoute, HTML_PAGE } from "../page-declaration.js"

/** Owners only: the dashboard's changes to their account (the operator's own changes stay in the admin API). */
const show = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const cursor = (yield* requestQuery).get("cursor") ?? undefined
  const page = yield* listAudit({
    merchantId: frame.visitor.merchant.id,
    actorType: "merchant_user",
    limit: DEFAULT_AUDIT_LIMIT,
    ...(cursor !== undefined && cursor !== "" ? { cursor } : {})
  }).pipe(Effect.catchTag("ValidationFailed", () =>
    Effect.fail(new DashboardAnswer(htmlAnswer(400, messagePage(frame.home, "That page of the log does not exist", "Start again from its first page.", { href: linkTo(frame, "/audit"), label: "Audit log" }))))))
  return htmlAnswer(200, auditPage({
    frame,
    entries: page.entries,
    next: page.nextCursor === null ? undefined : linkTo(frame, "/audit", { cursor: page.nextCursor }),
    first: cursor === undefined ? undefined : linkTo(frame, "/audit")
  }))
})

export const dashboardAuditPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/audit", operationId: "dashboardAudit", view: "owner",
    summary: "The dashboard's changes to the merchant's account (owners)",
    description: "Who refunded, rolled credentials, changed API Config..., when and from where, newest first; `cursor` pages.",
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    handler: show
  })
] as const

import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { DEFAULT_AUDIT_LIMIT, listAudit } from "../../../core/audit/list-audit.js"
import { auditPage } from "../dashboard/audit-page.js"
import { answerWith, DashboardAnswer, htmlAnswer } from "../dashboard/dashboard-response.js"
import { linkTo, messagePage } from "../dashboard/layout.js"
import { pageFrame, requestQuery, requireOwner } from "../dashboard/page-frame.js"

/** Owners only: the dashboard's changes to their account (the operator's own changes stay in the admin API). */
const show = answerWith(Effect.gen(function*() {
  const frame = yield* pageFrame
  yield* requireOwner(frame)
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
}))

export const dashboardAuditRoutes = HttpRouter.empty.pipe(HttpRouter.get("/dashboard/audit", show))

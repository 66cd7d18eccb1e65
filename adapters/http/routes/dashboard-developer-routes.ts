import { HttpRouter } from "@effect/platform"
import { Effect } from "effect"
import { liveCredentials } from "../../../core/merchants/live-credentials.js"
import { endCredentialOverlap, issueCredentials } from "../../../core/merchants/merchant-admin.js"
import { recordDashboardAction } from "../dashboard/dashboard-audit.js"
import { answerWith, htmlAnswer, seeOther } from "../dashboard/dashboard-response.js"
import { developersPage, issuedPage, ROLL_OVERLAPS } from "../dashboard/developer-pages.js"
import { linkTo } from "../dashboard/layout.js"
import { pageFrame, postedForm, requestQuery, requireOwner, scopeOf } from "../dashboard/page-frame.js"

const show = answerWith(Effect.gen(function*() {
  const frame = yield* pageFrame
  const live = yield* liveCredentials(scopeOf(frame))
  const notice = (yield* requestQuery).get("done") === "overlap-ended" ? "The overlap is over: only the current credentials work." : undefined
  return htmlAnswer(200, developersPage({ frame, live, notice }))
}))

/** A new set for the form's environment, revealed once in the answer; the old one per the overlap chosen. */
const roll = answerWith(Effect.gen(function*() {
  const { form, frame } = yield* postedForm
  yield* requireOwner(frame)
  const asked = Number(form.get("overlap_seconds") ?? "0")
  const overlap = ROLL_OVERLAPS.find((choice) => choice.seconds === asked)?.seconds ?? 0
  const issued = yield* issueCredentials(frame.visitor.merchant.id, frame.environment, { overlapSeconds: overlap })
  yield* recordDashboardAction(frame, { operation: "issueCredentials", route: "/dashboard/developers/roll", pathParams: {}, status: 200, fields: ["overlap_seconds"] })
  return htmlAnswer(200, issuedPage({ frame, ...issued }))
}))

const endOverlap = answerWith(Effect.gen(function*() {
  const { frame } = yield* postedForm
  yield* requireOwner(frame)
  yield* endCredentialOverlap(frame.visitor.merchant.id, frame.environment)
  yield* recordDashboardAction(frame, { operation: "endCredentialOverlap", route: "/dashboard/developers/end-overlap", pathParams: {}, status: 303, fields: [] })
  return seeOther(linkTo(frame, "/developers", { done: "overlap-ended" }))
}))

export const dashboardDeveloperRoutes = HttpRouter.empty.pipe(
  HttpRouter.get("/dashboard/developers", show),
  HttpRouter.post("/dashboard/developers/roll", roll),
  HttpRouter.post("/dashboard/developers/end-overlap", endOverlap)
)

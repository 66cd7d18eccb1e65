import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Effect from "effect/Effect"
import { getDispute, listDisputes } from "../../../../core/disputes/list-disputes.js"
import { submitDisputeEvidence } from "../../../../core/disputes/submit-evidence.js"
import { now } from "../../../../core/shared/instant.js"
import * as Contract from "../../contract/dispute-contracts.js"
import { describeError } from "../../response/error-table.js"
import { answerInstead, DashboardAnswer, htmlAnswer, seeOther } from "../dashboard-response.js"
import { linkTo, messagePage, type PageFrame } from "../layout.js"
import { dashboardRoute, HTML_PAGE, pathText } from "../page-declaration.js"
import { CurrentFrame, requestQuery, scopeOf, SentForm } from "../page-frame.js"
import { fieldProblems, problemText } from "../page-problems.js"
import { moneyText } from "../page-text.js"
import { disputeDetailPage, disputeListPage, type EvidenceFormState } from "./dispute-pages.js"

const list = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const query = yield* requestQuery
  const params = new URLSearchParams()
  for (const name of ["status", "cursor"] as const) {
    const value = query.get(name)
    if (value !== null && value !== "") params.set(name, value)
  }
  // The API's own query, decoded by its declaration: the limit is its default.
  const { value: request, errors } = Contract.disputeListQuery.read(params)
  const base = { frame, money: yield* moneyText, at: yield* now }
  const refused = Object.values(errors).flat()
  if (refused.length > 0) {
    return htmlAnswer(400, disputeListPage({ ...base, disputes: [], next: undefined, first: linkTo(frame, "/disputes"), problem: refused.join(" ") }))
  }
  const page = yield* listDisputes(scopeOf(frame), request)
  const status = request.status === undefined ? {} : { status: request.status }
  return htmlAnswer(200, disputeListPage({
    ...base,
    disputes: page.disputes,
    next: page.nextCursor === null ? undefined : linkTo(frame, "/disputes", { ...status, cursor: page.nextCursor }),
    first: request.cursor === undefined ? undefined : linkTo(frame, "/disputes", status),
    problem: undefined
  }))
})

/** Another merchant's dispute, or another environment's, is simply not there: 404, never 403. */
const disputeMissing = (frame: PageFrame) =>
  new DashboardAnswer(htmlAnswer(404, messagePage(frame.home, "No such dispute", "There is no dispute with that id here.", {
    href: linkTo(frame, "/disputes"),
    label: "All disputes"
  })))

const disputeId = Effect.map(HttpRouter.params, (params) => params["dispute_id"] ?? "")

/** The dispute's page; a refused evidence form comes back here with what it was told. */
const detailAnswer = (frame: PageFrame, status: number, sent: EvidenceFormState | undefined) =>
  Effect.gen(function*() {
    const dispute = yield* getDispute(scopeOf(frame), yield* disputeId).pipe(Effect.catchTag("DisputeNotFound", () => Effect.fail(disputeMissing(frame))))
    const notice = (yield* requestQuery).get("done") === "sent" ? "Evidence sent: the card network decides next." : undefined
    return htmlAnswer(status, disputeDetailPage({ frame, money: yield* moneyText, at: yield* now, dispute, sent, notice }))
  })

const detail = Effect.flatMap(CurrentFrame, (frame) => detailAnswer(frame, 200, undefined))

/**
 * The owner's evidence, text only, through the API's use case: its rules and messages, its gateway
 * call, its one move to under_review. A refusal comes back to the page with the API's status and
 * words, the text kept.
 */
const sendEvidence = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const id = yield* disputeId
  // A form sends a text area's line breaks as CRLF (HTML's form encoding): kept as the merchant typed them.
  const text = (form.get("text") ?? "").replace(/\r\n?/g, "\n")
  const refuse = (status: number, state: Omit<EvidenceFormState, "text">) => answerInstead(detailAnswer(frame, status, { text, ...state }))
  yield* submitDisputeEvidence(scopeOf(frame), id, { text, files: [] }).pipe(
    Effect.catchIf((error) => error._tag !== "StorageError", (error) =>
      error._tag === "DisputeNotFound"
        ? Effect.fail(disputeMissing(frame))
        : refuse(describeError(error).status, error._tag === "ValidationFailed"
          ? { problems: fieldProblems(error), problem: undefined }
          : { problems: {}, problem: problemText(error) }))
  )
  return seeOther(linkTo(frame, `/disputes/${encodeURIComponent(id)}`, { done: "sent" }))
})

export const dashboardDisputePages = [
  dashboardRoute({
    method: "get", path: "/dashboard/disputes", operationId: "dashboardDisputes", view: "member",
    summary: "The disputes, newest first, with status, payment, amount, fee, reason and the evidence deadline flagged when soon or passed",
    description: "`status`, `cursor`: the rules of GET /api/v1/disputes.",
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    others: [{ status: 400, description: "The status or cursor could not be read, said on the page.", contentType: HTML_PAGE }],
    handler: list
  }),
  dashboardRoute({
    method: "get", path: "/dashboard/disputes/{dispute_id}", operationId: "dashboardDispute", view: "member",
    summary: "A dispute: its facts, the evidence form (owners, while it waits for evidence) and the evidence sent",
    parameters: [pathText("dispute_id", "The dispute's id.")],
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    others: [{ status: 404, description: "No such dispute here.", contentType: HTML_PAGE }],
    handler: detail
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/disputes/{dispute_id}/evidence", operationId: "dashboardSubmitDisputeEvidence", form: "owner",
    audit: { operation: "submitDisputeEvidence", fields: ["text"] },
    // The gateway is asked before anything is written, outside any transaction.
    commitsAsItGoes: true,
    summary: "Answer a dispute with evidence (owners): text, sent on to the gateway",
    description: "Form field `text`: the rules of POST /api/v1/disputes/{disputeId}/evidence.",
    parameters: [pathText("dispute_id", "The dispute's id.")],
    success: { status: 303, description: "Sent: back to the dispute's page." },
    others: [
      { status: 404, description: "No such dispute here.", contentType: HTML_PAGE },
      { status: 409, description: "The dispute no longer waits for evidence, or its deadline passed, said on the page.", contentType: HTML_PAGE },
      { status: 422, description: "Refused (the text, or by the gateway), in the API's words.", contentType: HTML_PAGE }
    ],
    handler: sendEvidence
  })
] as const

import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Effect from "effect/Effect"
import { fromIsoString, type Instant, now } from "../../../../core/shared/instant.js"
import { advanceTestClock } from "../../../../core/subscriptions/advance-test-clock.js"
import { createTestClock, deleteTestClock, getTestClock, listTestClocks, subscriptionsOnClock } from "../../../../core/subscriptions/test-clocks.js"
import { describeError } from "../../response/error-table.js"
import { answerInstead, DashboardAnswer, htmlAnswer, seeOther } from "../dashboard-response.js"
import { linkTo, messagePage, type PageFrame } from "../layout.js"
import { CurrentFrame, requestQuery, scopeOf, SentForm } from "../page-frame.js"
import { problemText } from "../page-problems.js"
import { dashboardRoute, HTML_PAGE, pathText } from "../page-declaration.js"
import { testClockDetailPage, testClockListPage } from "./test-clock-pages.js"

/** A datetime-local value, read as UTC (the page says so), to the minute or the second. */
const formInstant = (value: string): Instant | undefined =>
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value) ? fromIsoString(value.length === 16 ? `${value}:00Z` : `${value}Z`) : undefined

const TIME_FORMAT = "Give the time as a date and a time of day (UTC)."

/** Production has no test clocks, and another merchant's clock is simply not there: a 404 page either way. */
const missing = (frame: PageFrame, text: string) =>
  new DashboardAnswer(htmlAnswer(404, messagePage(frame.home, "No such test clock", text, { href: linkTo({ ...frame, environment: "sandbox" }, "/test-clocks"), label: "Sandbox test clocks" })))

const SANDBOX_ONLY = "Test clocks are sandbox only: switch to the sandbox to use them."

const NOTICES: Readonly<Record<string, string>> = {
  created: "Test clock created.",
  advanced: "Test clock advanced.",
  deleted: "Test clock deleted with its subscriptions.",
  failed: "The advance could not finish: the clock is marked internal failure. Advance it again to retry."
}

const listAnswer = (frame: PageFrame, status: number, messages: { readonly notice?: string; readonly problem?: string; readonly sent?: { readonly frozenTime: string; readonly name: string } }) =>
  Effect.gen(function*() {
    const clocks = yield* listTestClocks(scopeOf(frame)).pipe(Effect.catchTag("TestClockSandboxOnly", () => Effect.fail(missing(frame, SANDBOX_ONLY))))
    return htmlAnswer(status, testClockListPage({ frame, clocks, now: yield* now, notice: messages.notice, problem: messages.problem, ...(messages.sent ? { sent: messages.sent } : {}) }))
  })

const list = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const notice = NOTICES[(yield* requestQuery).get("done") ?? ""]
  return yield* listAnswer(frame, 200, notice === undefined ? {} : { notice })
})

const idParam = Effect.map(HttpRouter.params, (params) => params["clock_id"] ?? "")

const detailAnswer = (frame: PageFrame, id: string, status: number, messages: { readonly notice?: string; readonly problem?: string; readonly sentTime?: string }) =>
  Effect.gen(function*() {
    const clock = yield* getTestClock(scopeOf(frame), id).pipe(
      Effect.catchTags({
        TestClockNotFound: () => Effect.fail(missing(frame, "There is no test clock with that id here.")),
        TestClockSandboxOnly: () => Effect.fail(missing(frame, SANDBOX_ONLY))
      })
    )
    const subscriptions = yield* subscriptionsOnClock(clock.id)
    return htmlAnswer(status, testClockDetailPage({ frame, clock, subscriptions, notice: messages.notice, problem: messages.problem, ...(messages.sentTime ? { sentTime: messages.sentTime } : {}) }))
  })

const detail = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const notice = NOTICES[(yield* requestQuery).get("done") ?? ""]
  return yield* detailAnswer(frame, yield* idParam, 200, notice === undefined ? {} : { notice })
})

const create = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const sent = { frozenTime: form.get("frozen_time") ?? "", name: form.get("name") ?? "" }
  const frozenTime = formInstant(sent.frozenTime)
  if (frozenTime === undefined) return yield* listAnswer(frame, 422, { problem: TIME_FORMAT, sent })
  const clock = yield* createTestClock(scopeOf(frame), { frozenTime, name: sent.name === "" ? null : sent.name }).pipe(
    Effect.catchTag("TestClockSandboxOnly", () => Effect.fail(missing(frame, SANDBOX_ONLY))),
    Effect.catchTags({
      ValidationFailed: (error) => answerInstead(listAnswer(frame, describeError(error).status, { problem: problemText(error), sent })),
      TestClockLimitReached: (error) => answerInstead(listAnswer(frame, describeError(error).status, { problem: problemText(error), sent }))
    })
  )
  return seeOther(linkTo(frame, `/test-clocks/${encodeURIComponent(clock.id)}`, { done: "created" }))
})

const notFoundOrSandbox = (frame: PageFrame) => ({
  TestClockNotFound: () => Effect.fail(missing(frame, "There is no test clock with that id here.")),
  TestClockSandboxOnly: () => Effect.fail(missing(frame, SANDBOX_ONLY))
})

const advance = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const id = yield* idParam
  const sentTime = form.get("frozen_time") ?? ""
  const frozenTime = formInstant(sentTime)
  if (frozenTime === undefined) return yield* detailAnswer(frame, id, 422, { problem: TIME_FORMAT, sentTime })
  const clock = yield* advanceTestClock(scopeOf(frame), id, frozenTime).pipe(
    Effect.catchTags(notFoundOrSandbox(frame)),
    Effect.catchTags({
      ValidationFailed: (error) => answerInstead(detailAnswer(frame, id, describeError(error).status, { problem: problemText(error), sentTime })),
      TestClockBusy: (error) => answerInstead(detailAnswer(frame, id, describeError(error).status, { problem: problemText(error), sentTime }))
    })
  )
  return seeOther(linkTo(frame, `/test-clocks/${encodeURIComponent(id)}`, { done: clock.status === "ready" ? "advanced" : "failed" }))
})

const remove = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const id = yield* idParam
  yield* deleteTestClock(scopeOf(frame), id).pipe(
    Effect.catchTags(notFoundOrSandbox(frame)),
    Effect.catchTag("TestClockBusy", (error) => answerInstead(detailAnswer(frame, id, describeError(error).status, { problem: problemText(error) })))
  )
  return seeOther(linkTo(frame, "/test-clocks", { done: "deleted" }))
})

const CLOCK = pathText("clock_id", "The test clock's id.")
const NO_CLOCK = { status: 404, description: "No such test clock for this merchant in this environment (or production).", contentType: HTML_PAGE }
const REFUSED = { status: 422, description: "Refused (a time not later, beyond five years, a limit), in the API's words.", contentType: HTML_PAGE }
const BUSY = { status: 409, description: "The clock is being advanced.", contentType: HTML_PAGE }

/** Issue 36: sandbox test clocks, with an Advance form. */
export const dashboardTestClockPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/test-clocks", operationId: "dashboardTestClocks", view: "member",
    summary: "Sandbox test clocks, newest first; owners get the create form",
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    others: [NO_CLOCK],
    handler: list
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/test-clocks/create", operationId: "dashboardCreateTestClock", form: "owner",
    audit: { operation: "createTestClock", fields: ["frozen_time", "name"] },
    summary: "Create a test clock (owners)",
    description: "Form fields `frozen_time` (datetime-local, UTC) and `name`.",
    success: { status: 303, description: "Created: to the clock." },
    others: [NO_CLOCK, REFUSED],
    handler: create
  }),
  dashboardRoute({
    method: "get", path: "/dashboard/test-clocks/{clock_id}", operationId: "dashboardTestClock", view: "member",
    summary: "A test clock with its subscriptions",
    parameters: [CLOCK],
    success: { status: 200, description: "The page; owners get the Advance and Delete forms.", contentType: HTML_PAGE },
    others: [NO_CLOCK],
    handler: detail
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/test-clocks/{clock_id}/advance", operationId: "dashboardAdvanceTestClock", form: "owner",
    audit: { operation: "advanceTestClock", fields: ["frozen_time"] },
    // Each due subscription is its own transaction, as in the scheduler's tick.
    commitsAsItGoes: true,
    summary: "Advance a test clock (owners)",
    description: "Form field `frozen_time` (datetime-local, UTC).",
    parameters: [CLOCK],
    success: { status: 303, description: "Done: back to the clock." },
    others: [NO_CLOCK, REFUSED, BUSY],
    handler: advance
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/test-clocks/{clock_id}/delete", operationId: "dashboardDeleteTestClock", form: "owner",
    audit: { operation: "deleteTestClock", fields: [] },
    summary: "Delete a test clock and its subscriptions (owners)",
    parameters: [CLOCK],
    success: { status: 303, description: "Deleted: to the list." },
    others: [NO_CLOCK, BUSY],
    handler: remove
  })
] as const

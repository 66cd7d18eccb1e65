import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { eventWithAttempts, listEvents, resumePausedTargets } from "../../../../core/webhooks/merchant-events.js"
import { sendTestEvent } from "../../../../core/webhooks/test-event.js"
import * as Parameters from "../../contract/event-parameters.js"
import { answerInstead, DashboardAnswer, htmlAnswer, seeOther } from "../dashboard-response.js"
import { dateRange } from "../date-filter.js"
import { linkTo, messagePage, type PageFrame } from "../layout.js"
import { CurrentFrame, requestQuery, scopeOf, SentForm } from "../page-frame.js"
import { problemText } from "../page-problems.js"
import { type EventFilters, webhookDetailPage, type WebhookListView, webhookListPage } from "./webhook-pages.js"
import { dashboardRoute, HTML_PAGE, pathText } from "../page-declaration.js"

/**
 * The list's query as the API reads it: the same parameters and rules as GET /api/v1/events, with
 * the form's empty fields left out and its dates (`from`, `to`, whole UTC days) as since and until.
 */
const eventQuery = (query: URLSearchParams) => {
  const filters: EventFilters = {
    type: query.get("type") ?? "",
    object_id: query.get("object_id") ?? "",
    from: query.get("from") ?? "",
    to: query.get("to") ?? ""
  }
  const params = new URLSearchParams()
  for (const name of ["type", "object_id", "cursor"] as const) {
    const value = query.get(name)
    if (value !== null && value !== "") params.set(name, value)
  }
  // The API's own query, decoded by its declaration: the limit is its default, the dates are the form's.
  const { value: request, errors } = Parameters.eventListQuery.read(params)
  const range = dateRange(filters.from, filters.to)
  const problem = [...Object.values(errors).flat(), ...range.problems].join(" ")
  return { filters, request, range, problem }
}

const NOTICES: Readonly<Record<string, string>> = {
  redelivered: "The webhook is queued to be sent again.",
  resumed: "Delivery resumed: the waiting events go out now, with the ones that failed meanwhile."
}

/** The list page for this request's query; a refused form (test event) comes back here with its problem. */
const listAnswer = (frame: PageFrame, status: number, messages: { readonly problem?: string; readonly testUrl?: string }) =>
  Effect.gen(function*() {
    const query = yield* requestQuery
    const { filters, request, range, problem } = eventQuery(query)
    const view: WebhookListView = {
      frame,
      filters,
      events: [],
      pausedTargets: [],
      next: undefined,
      first: undefined,
      testUrl: messages.testUrl ?? "",
      notice: NOTICES[query.get("done") ?? ""],
      problem: messages.problem ?? (problem === "" ? undefined : problem)
    }
    if (problem !== "") return htmlAnswer(400, webhookListPage(view))
    const { object_id: objectId, ...rest } = request
    const page = yield* listEvents(scopeOf(frame), {
      ...rest,
      ...(objectId !== undefined ? { objectId } : {}),
      ...(range.since !== undefined ? { since: range.since } : {}),
      ...(range.until !== undefined ? { until: range.until } : {})
    }).pipe(Effect.catchTag("ValidationFailed", (error) => Effect.fail(new DashboardAnswer(htmlAnswer(400, webhookListPage({ ...view, problem: problemText(error) }))))))
    return htmlAnswer(status, webhookListPage({
      ...view,
      events: page.events,
      pausedTargets: page.pausedTargets,
      next: page.nextCursor === null ? undefined : linkTo(frame, "/webhooks", { ...filters, cursor: page.nextCursor }),
      first: request.cursor === undefined ? undefined : linkTo(frame, "/webhooks", { ...filters })
    }))
  })

const list = Effect.flatMap(CurrentFrame, (frame) => listAnswer(frame, 200, {}))

/** Another merchant's event, or another environment's, is simply not there: 404, never 403. */
const eventMissing = (frame: PageFrame) =>
  htmlAnswer(404, messagePage(frame.home, "No such webhook event", "There is no webhook event with that id here.", {
    href: linkTo(frame, "/webhooks"),
    label: "All events"
  }))

const detail = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const id = (yield* HttpRouter.params)["event_id"] ?? ""
  const done = (yield* requestQuery).get("done")
  const found = yield* eventWithAttempts(scopeOf(frame), id)
  if (Option.isNone(found)) return eventMissing(frame)
  const { event, attempts } = found.value
  const notice = done === "test"
    ? `Test event queued to ${event.url}. Its attempts show below once sent: reload the page.`
    : done === "redelivered"
    ? "The webhook is queued to be sent again."
    : undefined
  return htmlAnswer(200, webhookDetailPage({ frame, event, attempts, notice }))
})

/** A signed test event to the URL the owner typed, then its own page, where its attempts appear. */
const sendTest = Effect.gen(function*() {
  const form = yield* SentForm
  const frame = yield* CurrentFrame
  const url = (form.get("url") ?? "").trim()
  const event = yield* sendTestEvent(scopeOf(frame), url).pipe(Effect.catchTag("ValidationFailed", (error) =>
    answerInstead(listAnswer(frame, 422, { problem: problemText(error), testUrl: url }))))
  return seeOther(linkTo(frame, `/webhooks/${encodeURIComponent(event.id)}`, { done: "test" }))
})

/** Resumes the merchant's paused targets (recoverEvents from when the oldest began failing). */
const resume = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  yield* resumePausedTargets(scopeOf(frame)).pipe(Effect.catchTag("ValidationFailed", (error) =>
    answerInstead(listAnswer(frame, 422, { problem: problemText(error) }))))
  return seeOther(linkTo(frame, "/webhooks", { done: "resumed" }))
})

export const dashboardWebhookPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/webhooks", operationId: "dashboardWebhooks", view: "member",
    summary: "Webhook events with their delivery, filters and cursor paging; paused receivers",
    description: "`type`, `object_id`, `from` and `to` (UTC dates), `cursor`: the rules of GET /api/v1/events.",
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    others: [{ status: 400, description: "A filter could not be read, said on the page.", contentType: HTML_PAGE }],
    handler: list
  }),
  dashboardRoute({
    method: "get", path: "/dashboard/webhooks/{event_id}", operationId: "dashboardWebhookEvent", view: "member",
    summary: "A webhook event: its body and every attempt",
    parameters: [pathText("event_id", "The event's id.")],
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    others: [{ status: 404, description: "No such event here.", contentType: HTML_PAGE }],
    handler: detail
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/webhooks/test", operationId: "dashboardSendTestEvent", form: "owner",
    audit: { operation: "sendTestEvent", fields: ["url"] },
    summary: "Send a signed test event to a URL (owners)",
    description: "Form field `url`, held to the rules of a payment's ipn_url.",
    success: { status: 303, description: "Queued: to the event's page." },
    others: [{ status: 422, description: "The URL is refused, said on the page.", contentType: HTML_PAGE }],
    handler: sendTest
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/webhooks/resume", operationId: "dashboardResumeWebhooks", form: "owner",
    audit: { operation: "recoverEvents", fields: [] },
    summary: "Resume paused receivers and queue their failed events again (owners)",
    success: { status: 303, description: "Resumed: back to the page." },
    others: [{ status: 422, description: "Refused, said on the page.", contentType: HTML_PAGE }],
    handler: resume
  })
] as const

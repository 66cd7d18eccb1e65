import * as HttpRouter from "@effect/platform/HttpRouter"
import * as Effect from "effect/Effect"
import { findRequestLog } from "../../../../core/request-logs/request-log-entry.js"
import { listRequestLogs } from "../../../../core/request-logs/request-log-list.js"
import { requestLogListQuery } from "../../contract/request-log-contracts.js"
import { DashboardAnswer, htmlAnswer } from "../dashboard-response.js"
import { DashboardSettings } from "../dashboard-settings.js"
import { timeRange } from "../date-filter.js"
import { linkTo, messagePage } from "../layout.js"
import { CurrentFrame, requestQuery, scopeOf } from "../page-frame.js"
import { problemText } from "../page-problems.js"
import { dashboardRoute, HTML_PAGE, pathText } from "../page-declaration.js"
import { requestLogDetailPage, type RequestLogFilters, requestLogListPage } from "./request-log-pages.js"

/**
 * The list's query as the API reads it: the same parameters and rules as GET /api/v1/request-logs
 * (`status`, `path`, `cursor`), with the form's empty fields left out and its `from` and `to` (UTC
 * times to the minute, or dates) as the range the API's `from` and `to` give.
 */
const logQuery = (query: URLSearchParams) => {
  const filters: RequestLogFilters = {
    status: query.get("status") ?? "",
    path: query.get("path") ?? "",
    from: query.get("from") ?? "",
    to: query.get("to") ?? ""
  }
  const params = new URLSearchParams()
  for (const name of ["status", "path", "cursor"] as const) {
    const value = query.get(name)
    if (value !== null && value !== "") params.set(name, value)
  }
  // The API's own query, decoded by its declaration: the limit is its default, the times are the form's.
  const { value: request, errors } = requestLogListQuery.read(params)
  const range = timeRange(filters.from, filters.to)
  const problem = [...Object.values(errors).flat(), ...range.problems].join(" ")
  return { filters, request, range, problem }
}

const list = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const keptDays = (yield* DashboardSettings).requestLogRetentionDays
  const { filters, request, range, problem } = logQuery(yield* requestQuery)
  const view = { frame, filters, keptDays, entries: [], next: undefined, first: undefined, problem: problem === "" ? undefined : problem }
  if (problem !== "") return htmlAnswer(400, requestLogListPage(view))
  const { path, from: _from, to: _to, ...rest } = request
  const page = yield* listRequestLogs(scopeOf(frame), {
    ...rest,
    ...(path !== undefined ? { pathPrefix: path } : {}),
    ...(range.since !== undefined ? { since: range.since } : {}),
    ...(range.until !== undefined ? { until: range.until } : {})
  }).pipe(Effect.catchTag("ValidationFailed", (error) => Effect.fail(new DashboardAnswer(htmlAnswer(400, requestLogListPage({ ...view, problem: problemText(error) }))))))
  return htmlAnswer(200, requestLogListPage({
    ...view,
    entries: page.logs,
    next: page.nextCursor === null ? undefined : linkTo(frame, "/logs", { ...filters, cursor: page.nextCursor }),
    first: request.cursor === undefined ? undefined : linkTo(frame, "/logs", { ...filters })
  }))
})

/** Another merchant's entry, or another environment's, is simply not there: 404, never 403. */
const detail = Effect.gen(function*() {
  const frame = yield* CurrentFrame
  const id = (yield* HttpRouter.params)["log_id"] ?? ""
  const entry = yield* findRequestLog(scopeOf(frame), id)
  if (entry === undefined) {
    return htmlAnswer(404, messagePage(frame.home, "No such request", "There is no logged request with that id here: it may be older than the log keeps.", {
      href: linkTo(frame, "/logs"),
      label: "All requests"
    }))
  }
  return htmlAnswer(200, requestLogDetailPage({ frame, entry }))
})

export const dashboardRequestLogPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/logs", operationId: "dashboardRequestLogs", view: "member",
    summary: "The merchant's API calls, newest first, with filters and cursor paging",
    description: "`status` (`401`, `4xx`, `5xx`), `path` (a prefix), `from` and `to` (UTC times to the minute, `2030-01-31 09:30`, or dates), `cursor`: the rules of GET /api/v1/request-logs.",
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    others: [{ status: 400, description: "A filter could not be read, said on the page.", contentType: HTML_PAGE }],
    handler: list
  }),
  dashboardRoute({
    method: "get", path: "/dashboard/logs/{log_id}", operationId: "dashboardRequestLog", view: "member",
    summary: "One API call: its redacted bodies, its error, and for a refused signature what the server signed and the likely cause",
    parameters: [pathText("log_id", "The log entry's id (`rl_...`).")],
    success: { status: 200, description: "The page.", contentType: HTML_PAGE },
    others: [{ status: 404, description: "No such entry for this merchant in this environment.", contentType: HTML_PAGE }],
    handler: detail
  })
] as const

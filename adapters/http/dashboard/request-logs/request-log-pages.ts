import { STATUS_CODES } from "node:http"
import type { RequestLog } from "../../../../core/request-logs/request-log.js"
import { html, type Html } from "../../pages/html.js"
import { framedPage, linkTo, type PageFrame } from "../layout.js"
import { cursorPager, factRow, filterField, problemBox } from "../page-parts.js"
import { timeText } from "../page-text.js"

/** The status filter's choices, as the API's `status` parameter takes them. */
export const STATUS_CHOICES = ["401", "4xx", "5xx"] as const

export interface RequestLogFilters {
  readonly status: string
  readonly path: string
  readonly from: string
  readonly to: string
}

export interface RequestLogListView {
  readonly frame: PageFrame
  readonly filters: RequestLogFilters
  readonly entries: ReadonlyArray<RequestLog>
  /** How long entries are kept, in days: the empty state says it. */
  readonly keptDays: number
  /** The next page's link; undefined on the last page. */
  readonly next: string | undefined
  /** Set when the page is past the first: a way back to it. */
  readonly first: string | undefined
  readonly problem: string | undefined
}

/** An answer's status as a badge: its class of answer coloured, its code and reason written. */
export const httpStatusBadge = (status: number): Html => {
  const family = status >= 500 ? "http-5xx" : status >= 400 ? "http-4xx" : status >= 300 ? "http-3xx" : "http-2xx"
  return html`<span class="status ${family}">${String(status)} ${STATUS_CODES[status] ?? ""}</span>`
}

const entryLink = (frame: PageFrame, entry: RequestLog) => linkTo(frame, `/logs/${encodeURIComponent(entry.id)}`)

/** The form's choices, and a status the link asked for that is not one of them (`2xx`), so the form shows what is applied. */
const statusSelect = (current: string) => {
  const choices: ReadonlyArray<string> = current === "" || (STATUS_CHOICES as ReadonlyArray<string>).includes(current) ? STATUS_CHOICES : [...STATUS_CHOICES, current]
  return html`<div><label for="filter-status">Status</label><select id="filter-status" name="status"><option value="">Any</option>${
    choices.map((status) => html`<option value="${status}"${status === current ? html` selected` : ""}>${status}</option>`)
  }</select></div>`
}

const filterForm = (view: RequestLogListView) =>
  html`<form class="card" method="get" action="${view.frame.home}/logs" aria-label="Filter requests">
<input type="hidden" name="environment" value="${view.frame.environment}">
<div class="filters">${statusSelect(view.filters.status)}${filterField("path", "Path starts with", view.filters.path, html`maxlength="200" placeholder="/api/v1/payments"`)}${
    filterField("from", "From (UTC)", view.filters.from, html`maxlength="16" placeholder="2030-01-31 09:30"`)
  }${filterField("to", "To (UTC)", view.filters.to, html`maxlength="16" placeholder="2030-01-31 17:00"`)}</div>
<div class="actions"><button type="submit" class="primary">Apply filters</button><a class="button" href="${linkTo(view.frame, "/logs")}">Clear</a></div>
</form>`

const entryRow = (view: RequestLogListView, entry: RequestLog) =>
  html`<tr><td data-label="Time">${timeText(entry.createdAt)}</td><td data-label="Method">${
    entry.method
  }</td><td data-label="Path" class="wrap"><code>${entry.path}</code></td><td data-label="Status">${httpStatusBadge(entry.status)}</td><td data-label="Duration">${
    `${entry.durationMs} ms`
  }</td><td data-label="Request id"><a href="${entryLink(view.frame, entry)}"><code class="trx">${entry.requestId}</code></a></td></tr>`

/** An environment with no request yet says what the log holds, for how long, and how a request lands in it. */
const noRequestsYet = (view: RequestLogListView) =>
  html`<div class="empty"><p><strong>No API requests logged yet.</strong></p><p>This log lists every call made to the API with this environment's keys: when, the method and path, the answer's status, how long it took and its request id, with the request and response bodies (secrets redacted). Entries are kept for ${
    String(view.keptDays)
  } days. Your keys are on the <a href="${linkTo(view.frame, "/developers")}">Developers</a> page.</p></div>`

export const requestLogListPage = (view: RequestLogListView) => {
  const filtered = view.first !== undefined || Object.values(view.filters).some((value) => value !== "")
  const rows = view.entries.length === 0
    ? filtered ? html`<p>No requests match.</p>` : noRequestsYet(view)
    : html`<table class="cards"><caption class="muted">Newest first, kept ${String(view.keptDays)} days</caption><thead><tr><th scope="col">Time</th><th scope="col">Method</th><th scope="col">Path</th><th scope="col">Status</th><th scope="col">Duration</th><th scope="col">Request id</th></tr></thead><tbody>${
      view.entries.map((entry) => entryRow(view, entry))
    }</tbody></table>`
  return framedPage(view.frame, "/logs", "Logs", html`${problemBox(view.problem)}${filterForm(view)}<section class="card" aria-labelledby="requests"><h2 id="requests">API requests</h2>${rows}${
    cursorPager(view.first, view.next)
  }</section>`)
}

export interface RequestLogDetailView {
  readonly frame: PageFrame
  readonly entry: RequestLog
}

const facts = (entry: RequestLog) =>
  html`<section class="card" aria-labelledby="facts"><h2 id="facts">Request</h2><table><tbody>${[
    factRow("Time", timeText(entry.createdAt)),
    factRow("Method", entry.method),
    factRow("Path", html`<code class="wrap">${entry.path}</code>`),
    factRow("Status", httpStatusBadge(entry.status)),
    factRow("Duration", `${entry.durationMs} ms`),
    factRow("Request id", html`<code class="trx" data-copy="Request id">${entry.requestId}</code>`)
  ]}</tbody></table></section>`

const errorSection = (entry: RequestLog) =>
  entry.error === null
    ? ""
    : html`<section class="card" aria-labelledby="error"><h2 id="error">Error</h2><p><code>${entry.error.errorCode}</code>: ${entry.error.message}</p></section>`

/** A refused signature: the string the server signed, to set beside the one the caller signed, and the likely cause. */
const signatureSection = (entry: RequestLog) =>
  entry.signatureCheck === null
    ? ""
    : html`<section class="card" aria-labelledby="signature"><h2 id="signature">Signature check</h2><p><strong>Likely cause:</strong> <code>${entry.signatureCheck.cause}</code></p><p>${
      entry.signatureCheck.explanation
    }</p><h3>What the server signed</h3><p class="muted">Compare it with the string your code signed, byte for byte: the body stands as its SHA-256.</p><pre class="payload">${
      entry.signatureCheck.canonical
    }</pre></section>`

const bodySection = (id: string, title: string, body: string | null) =>
  html`<section class="card" aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${
    body === null || body === "" ? html`<p class="muted">Empty.</p>` : html`<pre class="payload">${body}</pre>`
  }</section>`

export const requestLogDetailPage = (view: RequestLogDetailView) =>
  framedPage(view.frame, "/logs", `${view.entry.method} ${view.entry.path}`, html`<p><a href="${linkTo(view.frame, "/logs")}">All requests</a></p>${facts(view.entry)}${
    errorSection(view.entry)
  }${signatureSection(view.entry)}<p class="muted">Secrets in the bodies (keys, card data, passwords) are redacted before they are kept.</p>${
    bodySection("request-body", "Request body", view.entry.requestBody)
  }${bodySection("response-body", "Response body", view.entry.responseBody)}`)

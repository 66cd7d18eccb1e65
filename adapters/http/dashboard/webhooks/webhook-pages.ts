import type { DeliveryAttempt, WebhookDelivery } from "../../../../core/webhooks/delivery.js"
import type { PausedTarget } from "../../../../core/webhooks/merchant-events.js"
import { html } from "../../pages/html.js"
import { framedPage, formTokenFields, linkTo, type PageFrame } from "../layout.js"
import { cursorPager, factRow, filterField, noticeBox, problemBox } from "../page-parts.js"
import { statusLabel, timeText } from "../page-text.js"

export interface EventFilters {
  readonly type: string
  readonly object_id: string
  readonly from: string
  readonly to: string
}

export interface WebhookListView {
  readonly frame: PageFrame
  readonly filters: EventFilters
  readonly events: ReadonlyArray<WebhookDelivery>
  readonly pausedTargets: ReadonlyArray<PausedTarget>
  /** The next page's link; undefined on the last page. */
  readonly next: string | undefined
  /** Set when the page is past the first: a way back to it. */
  readonly first: string | undefined
  /** What the test event form was sent with, kept when it is refused. */
  readonly testUrl: string
  readonly notice: string | undefined
  readonly problem: string | undefined
}

const eventLink = (frame: PageFrame, event: WebhookDelivery) => linkTo(frame, `/webhooks/${encodeURIComponent(event.id)}`)

/** The page of what an event is about: a payment's (refunds included) or a subscription's (invoices included). */
const objectCell = (frame: PageFrame, event: WebhookDelivery) => {
  if (event.objectId === null || event.objectId === event.id) return "–"
  const page = event.event.startsWith("payment.") ? "/payments" : event.event.startsWith("subscription.") || event.event.startsWith("invoice.") ? "/subscriptions" : undefined
  const code = html`<code class="trx">${event.objectId}</code>`
  return page === undefined ? code : html`<a href="${linkTo(frame, `${page}/${encodeURIComponent(event.objectId)}`)}">${code}</a>`
}

/** An owner's button that sends the event again, coming back to `back` (a dashboard path). */
export const redeliverButton = (frame: PageFrame, event: WebhookDelivery, back: string) =>
  frame.visitor.role !== "owner"
    ? ""
    : html`<form class="inline" method="post" action="${frame.home}/events/${encodeURIComponent(event.id)}/redeliver">${formTokenFields(frame)}<input type="hidden" name="return_to" value="${
      back
    }"><button type="submit" class="secondary" aria-label="Redeliver ${event.event} event ${event.id}">Redeliver</button></form>`

const eventRow = (view: WebhookListView, event: WebhookDelivery) =>
  html`<tr><td data-label="Created">${timeText(event.createdAt)}</td><td data-label="Event"><a href="${eventLink(view.frame, event)}">${
    event.event
  }</a></td><td data-label="About">${objectCell(view.frame, event)}</td><td data-label="URL" class="wrap">${event.url}</td><td data-label="Status">${
    statusLabel(event.status)
  }</td><td data-label="Attempts">${event.attempts}</td><td data-label="Last error" class="wrap">${event.lastError ?? "–"}</td>${
    view.frame.visitor.role === "owner" ? html`<td data-label="Action">${redeliverButton(view.frame, event, "/webhooks")}</td>` : ""
  }</tr>`

const filterForm = (view: WebhookListView) =>
  html`<form class="card" method="get" action="${view.frame.home}/webhooks" aria-label="Filter events">
<input type="hidden" name="environment" value="${view.frame.environment}">
<div class="filters">${filterField("type", "Event type", view.filters.type, html`maxlength="200" placeholder="payment.completed"`)}${
    filterField("object_id", "Payment or subscription id", view.filters.object_id, html`maxlength="200"`)
  }${filterField("from", "From (UTC date)", view.filters.from, html`type="date"`)}${filterField("to", "To (UTC date)", view.filters.to, html`type="date"`)}</div>
<div class="actions"><button type="submit" class="primary">Apply filters</button><a class="button" href="${linkTo(view.frame, "/webhooks")}">Clear</a></div>
</form>`

/** Targets paused for failing every attempt: their events wait until an owner resumes them. */
const pausedSection = (view: WebhookListView) => {
  if (view.pausedTargets.length === 0) return ""
  const items = view.pausedTargets.map((target) =>
    html`<li><span class="wrap">${target.target}</span>: failing since ${timeText(target.failingSince)}, paused since ${timeText(target.pausedAt)}</li>`
  )
  const resume = view.frame.visitor.role === "owner"
    ? html`<form method="post" action="${view.frame.home}/webhooks/resume">${formTokenFields(view.frame)}<p>Resuming sends the waiting events, and queues again every event that failed since the oldest of these began failing.</p><button type="submit" class="primary">Resume</button></form>`
    : html`<p class="muted">An owner can resume them.</p>`
  return html`<section class="card" aria-labelledby="paused"><h2 id="paused">Paused endpoints</h2><p>Every attempt to these failed for too long, so their events are held back.</p><ul>${items}</ul>${resume}</section>`
}

const testForm = (view: WebhookListView) =>
  view.frame.visitor.role !== "owner"
    ? ""
    : html`<section class="card" aria-labelledby="test-event"><h2 id="test-event">Send a test event</h2>
<form method="post" action="${view.frame.home}/webhooks/test">${formTokenFields(view.frame)}
<p>A <code>test</code> event, signed with this environment's webhook secret like a payment event, to check that your endpoint receives and verifies it.</p>
<label for="test-url">Endpoint URL</label><input id="test-url" name="url" type="url" inputmode="url" required maxlength="2048" placeholder="https://shop.example/webhooks" value="${
      view.testUrl
    }">
<button type="submit" class="primary">Send test event</button>
</form></section>`

/** An environment with no event yet says where events come from and how to try an endpoint. */
const noEventsYet = (frame: PageFrame) =>
  html`<div class="empty"><p><strong>No webhook events yet.</strong></p><p>An event is sent to a payment's <code>ipn_url</code> when it completes, fails or is refunded, signed with the webhook secret on the <a href="${
    linkTo(frame, "/developers")
  }">Developers</a> page.${frame.visitor.role === "owner" ? " Send a test event below to check that your endpoint receives it." : ""}</p></div>`

export const webhookListPage = (view: WebhookListView) => {
  const filtered = view.first !== undefined || Object.values(view.filters).some((value) => value !== "")
  const rows = view.events.length === 0
    ? filtered ? html`<p>No events match.</p>` : noEventsYet(view.frame)
    : html`<table class="cards"><caption class="muted">Newest first</caption><thead><tr><th scope="col">Created</th><th scope="col">Event</th><th scope="col">About</th><th scope="col">URL</th><th scope="col">Status</th><th scope="col">Attempts</th><th scope="col">Last error</th>${view.frame.visitor.role === "owner" ? html`<th scope="col">Action</th>` : ""}</tr></thead><tbody>${
      view.events.map((event) => eventRow(view, event))
    }</tbody></table>`
  const pager = cursorPager(view.first, view.next)
  return framedPage(view.frame, "/webhooks", "Webhooks", html`${noticeBox(view.notice)}${problemBox(view.problem)}${pausedSection(view)}${filterForm(view)}<section class="card" aria-labelledby="events"><h2 id="events">Events</h2>${rows}${pager}</section>${testForm(view)}`)
}

export interface WebhookDetailView {
  readonly frame: PageFrame
  readonly event: WebhookDelivery
  /** Oldest first. */
  readonly attempts: ReadonlyArray<DeliveryAttempt>
  readonly notice: string | undefined
}

const facts = (view: WebhookDetailView) => {
  const { event } = view
  return html`<section class="card" aria-labelledby="facts"><h2 id="facts">Event</h2><table><tbody>${[
    factRow("Event id", html`<code class="trx">${event.id}</code>`),
    factRow("Type", event.event),
    factRow("About", html`${objectCell(view.frame, event)}${event.sequence === null || event.objectId === event.id ? "" : html` <span class="muted">(its event number ${event.sequence})</span>`}`),
    factRow("URL", html`<span class="wrap">${event.url}</span>`),
    factRow("Status", statusLabel(event.status)),
    factRow("Attempts", String(event.attempts)),
    factRow("Next attempt", event.nextAttemptAt === null || event.status !== "pending" ? "–" : timeText(event.nextAttemptAt)),
    factRow("Last answer", event.lastStatusCode === null ? "–" : `HTTP ${event.lastStatusCode}`),
    factRow("Last error", html`<span class="wrap">${event.lastError ?? "–"}</span>`),
    factRow("Created", timeText(event.createdAt))
  ]}</tbody></table><div class="actions">${redeliverButton(view.frame, event, `/webhooks/${event.id}`)}</div></section>`
}

const attemptRow = (attempt: DeliveryAttempt) =>
  html`<tr><td data-label="Attempt">${attempt.attempt}</td><td data-label="At">${timeText(attempt.at)}</td><td data-label="Answer">${
    attempt.statusCode === null ? "no answer" : `HTTP ${attempt.statusCode}`
  }</td><td data-label="Error" class="wrap">${attempt.error ?? "–"}</td><td data-label="Took">${attempt.durationMs} ms</td></tr>`

const attemptTable = (view: WebhookDetailView) =>
  html`<section class="card" aria-labelledby="attempts"><h2 id="attempts">Attempts</h2>${
    view.attempts.length === 0
      ? html`<p>No attempt yet.${view.event.status === "pending" ? " It is queued: reload the page in a moment." : ""}</p>`
      : html`<table class="cards"><caption class="muted">Oldest first</caption><thead><tr><th scope="col">Attempt</th><th scope="col">At</th><th scope="col">Answer</th><th scope="col">Error</th><th scope="col">Took</th></tr></thead><tbody>${
        view.attempts.map(attemptRow)
      }</tbody></table>`
  }</section>`

export const webhookDetailPage = (view: WebhookDetailView) =>
  framedPage(view.frame, "/webhooks", `Webhook ${view.event.event}`,
    html`${noticeBox(view.notice)}<p><a href="${linkTo(view.frame, "/webhooks")}">All events</a></p>${facts(view)}${attemptTable(view)}<section class="card" aria-labelledby="payload"><h2 id="payload">Body</h2><p class="muted">The exact bytes sent and signed on every attempt.</p><pre class="payload">${
      view.event.body
    }</pre></section>`)

import { type Instant, toIsoString } from "../../../../core/shared/instant.js"
import type { Subscription } from "../../../../core/subscriptions/subscription.js"
import type { TestClock } from "../../../../core/subscriptions/test-clock.js"
import { MAX_CLOCK_NAME } from "../../../../core/subscriptions/test-clocks.js"
import { html } from "../../pages/html.js"
import { framedPage, formTokenFields, linkTo, type PageFrame } from "../layout.js"
import { factRow, noticeBox, problemBox } from "../page-parts.js"
import { statusLabel, timeText } from "../page-text.js"

/** A datetime-local input's value (UTC, to the second): what the clock's time reads as in the form. */
export const inputValue = (instant: Instant) => toIsoString(instant).slice(0, 19)

const clockLink = (frame: PageFrame, clock: TestClock) => linkTo(frame, `/test-clocks/${encodeURIComponent(clock.id)}`)

const clockName = (clock: TestClock) => clock.name ?? clock.id

export interface TestClockListView {
  readonly frame: PageFrame
  readonly clocks: ReadonlyArray<TestClock>
  readonly notice: string | undefined
  readonly problem: string | undefined
  /** What a refused create form had, to show it again. */
  readonly sent?: { readonly frozenTime: string; readonly name: string }
  /** The default of the create form: the deployment's now. */
  readonly now: Instant
}

const clockRow = (view: TestClockListView, clock: TestClock) =>
  html`<tr><td data-label="Name"><a href="${clockLink(view.frame, clock)}">${clockName(clock)}</a></td><td data-label="Frozen time">${
    timeText(clock.frozenTime)
  }</td><td data-label="Status">${statusLabel(clock.status)}</td><td data-label="Created">${timeText(clock.createdAt)}</td></tr>`

const createForm = (view: TestClockListView) => {
  if (view.frame.visitor.role !== "owner") return ""
  return html`<section class="card" aria-labelledby="new-clock"><h2 id="new-clock">New test clock</h2>
<form method="post" action="${view.frame.home}/test-clocks/create">${formTokenFields(view.frame)}
<label for="clock-name">Name (optional)</label><input id="clock-name" name="name" maxlength="${String(MAX_CLOCK_NAME)}" value="${view.sent?.name ?? ""}" autocomplete="off">
<label for="clock-time">Frozen time (UTC)</label><input id="clock-time" name="frozen_time" type="datetime-local" step="1" required value="${
    view.sent?.frozenTime ?? inputValue(view.now)
  }">
<p class="muted">Subscriptions created with <code>"test_clock"</code> set to the clock's id start at this time and move only when the clock is advanced.</p>
<button type="submit" class="primary">Create test clock</button>
</form></section>`
}

export const testClockListPage = (view: TestClockListView) => {
  const rows = view.clocks.length === 0
    ? html`<div class="empty"><p><strong>No test clocks yet.</strong></p><p>A test clock moves sandbox subscriptions through months of renewals in seconds: create one, create subscriptions on it with <code>POST /api/v1/subscriptions</code> and <code>"test_clock"</code>, then advance it.</p></div>`
    : html`<table class="cards"><caption class="muted">Newest first</caption><thead><tr><th scope="col">Name</th><th scope="col">Frozen time</th><th scope="col">Status</th><th scope="col">Created</th></tr></thead><tbody>${
      view.clocks.map((clock) => clockRow(view, clock))
    }</tbody></table>`
  return framedPage(view.frame, "/test-clocks", "Test clocks", html`${noticeBox(view.notice)}${problemBox(view.problem)}<section class="card" aria-label="Test clocks">${rows}</section>${createForm(view)}`)
}

export interface TestClockDetailView {
  readonly frame: PageFrame
  readonly clock: TestClock
  readonly subscriptions: ReadonlyArray<Subscription>
  readonly notice: string | undefined
  readonly problem: string | undefined
  readonly sentTime?: string
}

const subscriptionRow = (frame: PageFrame, subscription: Subscription) =>
  html`<tr><td data-label="Reference" class="wrap"><a href="${linkTo(frame, `/subscriptions/${encodeURIComponent(subscription.id)}`)}">${subscription.externalReference}</a></td><td data-label="Status">${
    statusLabel(subscription.status)
  }</td><td data-label="Next billing">${subscription.nextBillingAt === null ? "–" : timeText(subscription.nextBillingAt)}</td></tr>`

const ownerForms = (view: TestClockDetailView) => {
  const { clock, frame } = view
  if (frame.visitor.role !== "owner") return ""
  const action = `${frame.home}/test-clocks/${encodeURIComponent(clock.id)}`
  return html`<section class="card" aria-labelledby="advance"><h2 id="advance">Advance</h2>
<form method="post" action="${action}/advance">${formTokenFields(frame)}
<label for="advance-time">New frozen time (UTC)</label><input id="advance-time" name="frozen_time" type="datetime-local" step="1" required value="${
    view.sentTime ?? inputValue(clock.frozenTime)
  }">
<p class="muted">Everything due on its subscriptions up to this time happens, in order: invoices, period ends, cancellations. Their webhooks are sent now.</p>
<button type="submit" class="primary">Advance clock</button>
</form></section>
<section class="card" aria-labelledby="delete"><h2 id="delete">Delete</h2>
<form method="post" action="${action}/delete">${formTokenFields(frame)}
<p>The clock's subscriptions and their invoices are deleted and their open payment links stop working. Payments already made stay in Payments.</p>
<button type="submit" class="secondary">Delete test clock</button>
</form></section>`
}

export const testClockDetailPage = (view: TestClockDetailView) => {
  const { clock } = view
  const subscriptions = view.subscriptions.length === 0
    ? html`<p>No subscription on this clock yet.</p>`
    : html`<table class="cards"><caption class="muted">Oldest first</caption><thead><tr><th scope="col">Reference</th><th scope="col">Status</th><th scope="col">Next billing</th></tr></thead><tbody>${
      view.subscriptions.map((subscription) => subscriptionRow(view.frame, subscription))
    }</tbody></table>`
  return framedPage(view.frame, "/test-clocks", `Test clock ${clockName(clock)}`, html`${noticeBox(view.notice)}${problemBox(view.problem)}<p><a href="${
    linkTo(view.frame, "/test-clocks")
  }">All test clocks</a></p><section class="card" aria-labelledby="facts"><h2 id="facts">Clock</h2><table><tbody>${[
    factRow("Id", html`<code class="trx">${clock.id}</code>`),
    factRow("Frozen time", timeText(clock.frozenTime)),
    factRow("Status", statusLabel(clock.status)),
    factRow("Created", timeText(clock.createdAt))
  ]}</tbody></table></section><section class="card" aria-labelledby="on-clock"><h2 id="on-clock">Subscriptions</h2>${subscriptions}</section>${ownerForms(view)}`)
}

import type { Instant } from "../../../core/shared/instant.js"
import type { BillingCycle, Invoice, Subscription } from "../../../core/subscriptions/subscription.js"
import { escapeHtml } from "../pages/house-style.js"
import { dashboardPage, formFields, linkTo, type PageFrame } from "./layout.js"
import { factRow, noticeBox, problemBox } from "./page-parts.js"
import { type MoneyText, statusLabel, timeText } from "./page-text.js"

const CYCLES: Readonly<Record<BillingCycle, string>> = {
  daily: "every day",
  weekly: "every week",
  monthly: "every month",
  half_yearly: "every 6 months",
  yearly: "every year"
}

const price = (money: MoneyText, subscription: Subscription) =>
  `${escapeHtml(money(subscription.amount, subscription.currency))} ${CYCLES[subscription.billingCycle]}`

/** Its status, and that it ends with its paid period when a cancel at period end waits. */
const standing = (subscription: Subscription) =>
  `<span>${statusLabel(subscription.status)}${
    subscription.cancelAtPeriodEnd && subscription.status !== "cancelled" ? ` <span class="muted">ends at period end</span>` : ""
  }</span>`

const when = (instant: Instant | null) => (instant === null ? "–" : timeText(instant))

const detailLink = (frame: PageFrame, subscription: Subscription) => linkTo(frame, `/subscriptions/${encodeURIComponent(subscription.id)}`)

export interface SubscriptionListView {
  readonly frame: PageFrame
  readonly money: MoneyText
  readonly items: ReadonlyArray<{ readonly subscription: Subscription; readonly latest: Invoice | undefined }>
  readonly page: number
  readonly lastPage: number
  readonly problem: string | undefined
}

const subscriptionRow = (view: SubscriptionListView, subscription: Subscription) =>
  `<tr><td data-label="Created">${timeText(subscription.createdAt)}</td><td data-label="Reference"><a href="${
    escapeHtml(detailLink(view.frame, subscription))
  }">${escapeHtml(subscription.externalReference)}</a></td><td data-label="Customer">${escapeHtml(subscription.customerEmail)}</td><td data-label="Price" class="amount">${
    price(view.money, subscription)
  }</td><td data-label="Status">${standing(subscription)}</td><td data-label="Next billing">${when(subscription.nextBillingAt)}</td></tr>`

/** Page-numbered, as the API's list is: a previous and a next page, and where this one stands. */
const pager = (view: SubscriptionListView) => {
  if (view.lastPage <= 1 && view.page === 1) return ""
  const to = (page: number) => linkTo(view.frame, "/subscriptions", { page: String(page) })
  const previous = view.page > 1 ? `<a class="button" href="${escapeHtml(to(Math.min(view.page - 1, view.lastPage)))}">Previous page</a>` : "<span></span>"
  const next = view.page < view.lastPage ? `<a class="button" href="${escapeHtml(to(view.page + 1))}">Next page</a>` : "<span></span>"
  return `<nav class="pager" aria-label="Pages">${previous}<span class="muted">Page ${view.page} of ${view.lastPage}</span>${next}</nav>`
}

export const subscriptionListPage = (view: SubscriptionListView) => {
  const rows = view.items.length === 0
    ? `<p>No subscriptions${view.page > 1 ? " on this page" : " yet"}.</p>`
    : `<table class="cards"><caption class="muted">Newest first</caption><thead><tr><th scope="col">Created</th><th scope="col">Reference</th><th scope="col">Customer</th><th scope="col" class="amount">Price</th><th scope="col">Status</th><th scope="col">Next billing</th></tr></thead><tbody>${
      view.items.map(({ subscription }) => subscriptionRow(view, subscription)).join("")
    }</tbody></table>`
  return dashboardPage(view.frame, "/subscriptions", "Subscriptions", `${problemBox(view.problem)}<section class="card" aria-label="Subscriptions">${rows}${pager(view)}</section>`)
}

export interface SubscriptionDetailView {
  readonly frame: PageFrame
  readonly money: MoneyText
  readonly subscription: Subscription
  /** Newest first, as retrieve answers them. */
  readonly invoices: ReadonlyArray<Invoice>
  readonly notice: string | undefined
  readonly problem: string | undefined
}

const facts = (view: SubscriptionDetailView) => {
  const { subscription: s } = view
  const period = s.currentPeriodStart === null || s.currentPeriodEnd === null ? "–" : `${timeText(s.currentPeriodStart)} to ${timeText(s.currentPeriodEnd)}`
  return `<section class="card" aria-labelledby="facts"><h2 id="facts">Subscription</h2><table><tbody>${[
    factRow("Id", `<code class="trx">${escapeHtml(s.id)}</code>`),
    factRow("Reference", escapeHtml(s.externalReference)),
    factRow("Status", standing(s)),
    factRow("Price", price(view.money, s)),
    factRow("Customer", escapeHtml([s.customerName, s.customerEmail].filter((part) => part !== null).join(", "))),
    factRow("Description", escapeHtml(s.description ?? "–")),
    factRow("Paid period", period),
    factRow("Next billing", when(s.nextBillingAt)),
    factRow("Cancelled", when(s.cancelledAt)),
    factRow("Created", timeText(s.createdAt)),
    factRow("Webhook URL", `<span class="wrap">${escapeHtml(s.ipnUrl)}</span>`)
  ].join("")}</tbody></table><p><a href="${escapeHtml(linkTo(view.frame, "/webhooks", { object_id: s.id }))}">Its webhook events</a></p></section>`
}

const invoiceRow = (view: SubscriptionDetailView, invoice: Invoice) => {
  // One element: a stacked card's cell lays out its children side by side.
  const period = invoice.periodStart === null || invoice.periodEnd === null ? "–" : `<span>${timeText(invoice.periodStart)} to ${timeText(invoice.periodEnd)}</span>`
  const payment = invoice.trxId === null
    ? "–"
    : `<a href="${escapeHtml(linkTo(view.frame, `/payments/${encodeURIComponent(invoice.trxId)}`))}"><code class="trx">${escapeHtml(invoice.trxId)}</code></a>`
  return `<tr><td data-label="Number">${invoice.sequence}</td><td data-label="Reference">${escapeHtml(invoice.reference)}</td><td data-label="Status">${
    statusLabel(invoice.status)
  }</td><td data-label="Amount" class="amount">${escapeHtml(view.money(invoice.amount, invoice.currency))}</td><td data-label="Period">${period}</td><td data-label="Paid">${
    when(invoice.paidAt)
  }</td><td data-label="Payment">${payment}</td></tr>`
}

const invoiceTable = (view: SubscriptionDetailView) =>
  `<section class="card" aria-labelledby="invoices"><h2 id="invoices">Invoices</h2>${
    view.invoices.length === 0
      ? `<p>No invoice yet.</p>`
      : `<table class="cards"><caption class="muted">The latest ${view.invoices.length}, newest first</caption><thead><tr><th scope="col">Number</th><th scope="col">Reference</th><th scope="col">Status</th><th scope="col" class="amount">Amount</th><th scope="col">Period</th><th scope="col">Paid</th><th scope="col">Payment</th></tr></thead><tbody>${
        view.invoices.map((invoice) => invoiceRow(view, invoice)).join("")
      }</tbody></table>`
  }</section>`

/**
 * An owner's two ways to cancel, as the API's at_period_end: the paid period runs out first (only
 * an active subscription has one, and only until it is already asked), or it ends now.
 */
const cancelForm = (view: SubscriptionDetailView) => {
  const { frame, subscription: s } = view
  if (frame.visitor.role !== "owner" || s.status === "cancelled") return ""
  const waits = s.status === "active" && !s.cancelAtPeriodEnd && s.currentPeriodEnd !== null
  const atEnd = waits
    ? `<button type="submit" name="when" value="period_end" class="secondary">Cancel at period end</button>`
    : ""
  const explained = waits
    ? `<p>At period end: the customer keeps access until ${timeText(s.currentPeriodEnd!)}, and no further invoice is made. Now: it ends at once and every unpaid invoice's payment link stops working.</p>`
    : `<p>It ends at once: no further invoice is made and every unpaid invoice's payment link stops working. This cannot be undone.</p>`
  return `<section class="card" aria-labelledby="cancel"><h2 id="cancel">Cancel</h2>
<form method="post" action="${frame.home}/subscriptions/${encodeURIComponent(s.id)}/cancel">${formFields(frame)}${explained}
<div class="actions">${atEnd}<button type="submit" name="when" value="now" class="secondary">Cancel now</button></div>
</form></section>`
}

export const subscriptionDetailPage = (view: SubscriptionDetailView) =>
  dashboardPage(view.frame, "/subscriptions", `Subscription ${view.subscription.externalReference}`,
    `${noticeBox(view.notice)}${problemBox(view.problem)}<p><a href="${escapeHtml(linkTo(view.frame, "/subscriptions"))}">All subscriptions</a></p>${facts(view)}${
      cancelForm(view)
    }${invoiceTable(view)}`)

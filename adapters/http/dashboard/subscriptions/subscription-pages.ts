import type { Instant } from "../../../../core/shared/instant.js"
import type { BillingCycle, Invoice, Subscription } from "../../../../core/subscriptions/subscription.js"
import { html } from "../../pages/html.js"
import { framedPage, formTokenFields, linkTo, type PageFrame } from "../layout.js"
import { factRow, noticeBox, problemBox } from "../page-parts.js"
import { planChangeSection } from "./plan-change-parts.js"
import { dunningCard } from "./dunning-card.js"
import { type MoneyText, statusLabel, timeText } from "../page-text.js"
import { invoiceDocumentPath } from "./invoice-document-routes.js"

const CYCLES: Readonly<Record<BillingCycle, string>> = {
  daily: "every day",
  weekly: "every week",
  monthly: "every month",
  half_yearly: "every 6 months",
  yearly: "every year"
}

const price = (money: MoneyText, subscription: Subscription) =>
  `${money(subscription.amount, subscription.currency)} ${CYCLES[subscription.billingCycle]}`

/** Its status, and that it ends with its paid period when a cancel at period end waits. */
const standing = (subscription: Subscription) =>
  html`<span>${statusLabel(subscription.status)}${
    subscription.cancelAtPeriodEnd && subscription.status !== "cancelled" ? html` <span class="muted">ends at period end</span>` : ""
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
  html`<tr><td data-label="Created">${timeText(subscription.createdAt)}</td><td data-label="Reference"><a href="${
    detailLink(view.frame, subscription)
  }">${subscription.externalReference}</a></td><td data-label="Customer" class="wrap">${subscription.customerEmail}</td><td data-label="Price" class="amount">${
    price(view.money, subscription)
  }</td><td data-label="Status">${standing(subscription)}</td><td data-label="Next billing">${when(subscription.nextBillingAt)}</td></tr>`

/** Page-numbered, as the API's list is: a previous and a next page, and where this one stands. */
const pager = (view: SubscriptionListView) => {
  if (view.lastPage <= 1 && view.page === 1) return ""
  const to = (page: number) => linkTo(view.frame, "/subscriptions", { page: String(page) })
  const previous = view.page > 1 ? html`<a class="button" href="${to(Math.min(view.page - 1, view.lastPage))}">Previous page</a>` : html`<span></span>`
  const next = view.page < view.lastPage ? html`<a class="button" href="${to(view.page + 1)}">Next page</a>` : html`<span></span>`
  return html`<nav class="pager" aria-label="Pages">${previous}<span class="muted">Page ${view.page} of ${view.lastPage}</span>${next}</nav>`
}

/** An environment with no subscription yet says how the first one is made. */
const noSubscriptionsYet = html`<div class="empty"><p><strong>No subscriptions yet.</strong></p><p>Your site creates one with <code>POST /api/v1/subscriptions</code> (a customer, a price and a billing interval); its first invoice is a payment the customer makes through checkout, and it shows here at once.</p></div>`

export const subscriptionListPage = (view: SubscriptionListView) => {
  const rows = view.items.length === 0
    ? view.page > 1 ? html`<p>No subscriptions on this page.</p>` : noSubscriptionsYet
    : html`<table class="cards"><caption class="muted">Newest first</caption><thead><tr><th scope="col">Created</th><th scope="col">Reference</th><th scope="col">Customer</th><th scope="col" class="amount">Price</th><th scope="col">Status</th><th scope="col">Next billing</th></tr></thead><tbody>${
      view.items.map(({ subscription }) => subscriptionRow(view, subscription))
    }</tbody></table>`
  return framedPage(view.frame, "/subscriptions", "Subscriptions", html`${problemBox(view.problem)}<p><a href="${linkTo(view.frame, "/billing-settings")}">Billing settings: reminders, grace period, retries</a></p><section class="card" aria-label="Subscriptions">${rows}${pager(view)}</section>`)
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
  const period = s.currentPeriodStart === null || s.currentPeriodEnd === null ? "–" : html`${timeText(s.currentPeriodStart)} to ${timeText(s.currentPeriodEnd)}`
  return html`<section class="card" aria-labelledby="facts"><h2 id="facts">Subscription</h2><table><tbody>${[
    factRow("Id", html`<code class="trx">${s.id}</code>`),
    factRow("Reference", s.externalReference),
    factRow("Status", standing(s)),
    factRow("Price", price(view.money, s)),
    factRow("Customer", [s.customerName, s.customerEmail].filter((part) => part !== null).join(", ")),
    factRow("Description", s.description ?? "–"),
    factRow("Paid period", period),
    factRow("Next billing", when(s.nextBillingAt)),
    factRow("Cancelled", when(s.cancelledAt)),
    factRow("Created", timeText(s.createdAt)),
    factRow("Webhook URL", html`<span class="wrap">${s.ipnUrl}</span>`),
    ...(s.testClockId === null ? [] : [factRow("Test clock", html`<a href="${linkTo(view.frame, `/test-clocks/${encodeURIComponent(s.testClockId)}`)}"><code class="trx">${s.testClockId}</code></a>`)])
  ]}</tbody></table><p><a href="${linkTo(view.frame, "/webhooks", { object_id: s.id })}">Its webhook events</a></p></section>`
}

const invoiceRow = (view: SubscriptionDetailView, invoice: Invoice) => {
  // One element: a stacked card's cell lays out its children side by side.
  const period = invoice.periodStart === null || invoice.periodEnd === null ? "–" : html`<span>${timeText(invoice.periodStart)} to ${timeText(invoice.periodEnd)}</span>`
  const payment = invoice.trxId === null
    ? "–"
    : html`<a href="${linkTo(view.frame, `/payments/${encodeURIComponent(invoice.trxId)}`)}"><code class="trx">${invoice.trxId}</code></a>`
  const document = linkTo(view.frame, invoiceDocumentPath(view.subscription.id, invoice.id))
  const receipt = linkTo(view.frame, invoiceDocumentPath(view.subscription.id, invoice.id), { kind: "receipt" })
  const documents = html`<span><a href="${document}" download>PDF</a>${
    invoice.status === "paid" ? html` · <a href="${receipt}" download>Receipt</a>` : ""
  }</span>`
  return html`<tr><td data-label="Number" class="nowrap">${invoice.number ?? invoice.sequence}</td><td data-label="Reference">${invoice.reference}</td><td data-label="Status">${
    statusLabel(invoice.status)
  }</td><td data-label="Amount" class="amount">${view.money(invoice.amount, invoice.currency)}</td><td data-label="Period">${period}</td><td data-label="Paid">${
    when(invoice.paidAt)
  }</td><td data-label="Payment">${payment}</td><td data-label="Documents">${documents}</td></tr>`
}

const invoiceTable = (view: SubscriptionDetailView) =>
  html`<section class="card" aria-labelledby="invoices"><h2 id="invoices">Invoices</h2>${
    view.invoices.length === 0
      ? html`<p>No invoice yet.</p>`
      : html`<table class="cards"><caption class="muted">The latest ${view.invoices.length}, newest first</caption><thead><tr><th scope="col">Number</th><th scope="col">Reference</th><th scope="col">Status</th><th scope="col" class="amount">Amount</th><th scope="col">Period</th><th scope="col">Paid</th><th scope="col">Payment</th><th scope="col">Documents</th></tr></thead><tbody>${
        view.invoices.map((invoice) => invoiceRow(view, invoice))
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
    ? html`<button type="submit" name="when" value="period_end" class="secondary">Cancel at period end</button>`
    : ""
  const explained = waits
    ? html`<p>At period end: the customer keeps access until ${timeText(s.currentPeriodEnd!)}, and no further invoice is made. Now: it ends at once and every unpaid invoice's payment link stops working.</p>`
    : html`<p>It ends at once: no further invoice is made and every unpaid invoice's payment link stops working. This cannot be undone.</p>`
  return html`<section class="card" aria-labelledby="cancel"><h2 id="cancel">Cancel</h2>
<form method="post" action="${frame.home}/subscriptions/${encodeURIComponent(s.id)}/cancel">${formTokenFields(frame)}${explained}
<div class="actions">${atEnd}<button type="submit" name="when" value="now" class="secondary">Cancel now</button></div>
</form></section>`
}

export const subscriptionDetailPage = (view: SubscriptionDetailView) =>
  framedPage(view.frame, "/subscriptions", `Subscription ${view.subscription.externalReference}`,
    html`${noticeBox(view.notice)}${problemBox(view.problem)}<p><a href="${linkTo(view.frame, "/subscriptions")}">All subscriptions</a></p>${facts(view)}${dunningCard(view.subscription)}${
      planChangeSection(view)
    }${
      cancelForm(view)
    }${invoiceTable(view)}`)

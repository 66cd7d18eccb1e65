import type { Amount } from "../../../../core/money/amount.js"
import type { Dispute } from "../../../../core/disputes/dispute.js"
import type { Payment } from "../../../../core/payments/payment.js"
import { PaymentStatus } from "../../../../core/payments/payment.js"
import type { PaymentDelivery, PaymentHistory } from "../../../../core/payments/payment-history.js"
import { toCurrencyString } from "../../../../core/money/format.js"
import type { Instant } from "../../../../core/shared/instant.js"
import { html, type Html } from "../../pages/html.js"
import { paymentDisputes } from "../disputes/dispute-pages.js"
import { framedPage, formTokenFields, linkTo, type PageFrame } from "../layout.js"
import { cursorPager, factRow, filterField, noticeBox, problemBox } from "../page-parts.js"
import { type MoneyText, paymentBadge, statusLabel, timeText } from "../page-text.js"

export interface PaymentFilters {
  readonly status: string
  readonly from: string
  readonly to: string
  readonly reference: string
  readonly amount: string
  readonly currency: string
}

export interface PaymentListView {
  readonly frame: PageFrame
  readonly money: MoneyText
  readonly filters: PaymentFilters
  readonly payments: ReadonlyArray<Payment>
  /** The next page's link; undefined on the last page. */
  readonly next: string | undefined
  /** Set when the page is past the first: a way back to it. */
  readonly first: string | undefined
  readonly problem: string | undefined
}

const statusSelect = (current: string) =>
  html`<div><label for="filter-status">Status</label><select id="filter-status" name="status"><option value="">Any</option>${
    PaymentStatus.literals.map((status) => html`<option value="${status}"${status === current ? html` selected` : ""}>${status}</option>`)
  }</select></div>`

const filterForm = (view: PaymentListView) =>
  html`<form class="card" method="get" action="${view.frame.home}/payments" aria-label="Filter payments">
<input type="hidden" name="environment" value="${view.frame.environment}">
<div class="filters">${statusSelect(view.filters.status)}${filterField("from", "From (UTC date)", view.filters.from, html`type="date"`)}${
    filterField("to", "To (UTC date)", view.filters.to, html`type="date"`)
  }${filterField("reference", "Reference", view.filters.reference, html`maxlength="60"`)}${filterField("amount", "Amount", view.filters.amount, html`inputmode="decimal" maxlength="40"`)}${
    filterField("currency", "Currency", view.filters.currency, html`maxlength="10"`)
  }</div>
<div class="actions"><button type="submit" class="primary">Apply filters</button><a class="button" href="${linkTo(view.frame, "/payments")}">Clear</a></div>
</form>`

const paymentRow = (view: PaymentListView, payment: Payment) =>
  html`<tr><td data-label="Created">${timeText(payment.createdAt)}</td><td data-label="Transaction"><a href="${linkTo(view.frame, `/payments/${encodeURIComponent(payment.trxId)}`)}"><code class="trx">${payment.trxId}</code></a></td><td data-label="Reference" class="wrap">${payment.refTrx}</td><td data-label="Amount" class="amount">${view.money(payment.amount, payment.currency)}</td><td data-label="Status">${paymentBadge(payment)}</td></tr>`

/** An empty environment says how its first payment is made, not just that there is none. */
const noPaymentsYet = (frame: PageFrame) =>
  html`<div class="empty"><p><strong>No payments yet.</strong></p><p>Your site starts one with <code>POST /api/v1/initiate-payment</code>, signed with this environment's keys, and sends the customer to the <code>payment_url</code> it answers. Your keys are on the <a href="${
    linkTo(frame, "/developers")
  }">Developers</a> page.</p></div>`

export const paymentListPage = (view: PaymentListView) => {
  const filtered = view.first !== undefined || Object.values(view.filters).some((value) => value !== "")
  const rows = view.payments.length === 0
    ? filtered ? html`<p>No payments match.</p>` : noPaymentsYet(view.frame)
    : html`<table class="cards"><caption class="muted">Newest first</caption><thead><tr><th scope="col">Created</th><th scope="col">Transaction</th><th scope="col">Reference</th><th scope="col" class="amount">Amount</th><th scope="col">Status</th></tr></thead><tbody>${
      view.payments.map((payment) => paymentRow(view, payment))
    }</tbody></table>`
  const pager = cursorPager(view.first, view.next)
  return framedPage(view.frame, "/payments", "Payments", html`${problemBox(view.problem)}${filterForm(view)}<section class="card" aria-label="Payments">${rows}${pager}</section>`)
}

export interface PaymentDetailView {
  readonly frame: PageFrame
  readonly money: MoneyText
  readonly history: PaymentHistory
  /** The payment's disputes, newest first; none for most. */
  readonly disputes: ReadonlyArray<Dispute>
  /** Business time now: how near each open dispute's evidence deadline is. */
  readonly at: Instant
  /** The currency's minor digits, for the refund form's amount. */
  readonly exponent: number
  /** What can still be refunded: the rest of the payment less what its disputes hold. */
  readonly refundable: Amount
  /** A fresh idempotency key for the refund form: the same refund sent twice is made once. */
  readonly refundKey: string
  readonly notice: string | undefined
  readonly problem: string | undefined
}

const facts = (view: PaymentDetailView) => {
  const { payment } = view.history
  return html`<section class="card" aria-labelledby="facts"><h2 id="facts">Payment</h2><table><tbody>${[
    factRow("Transaction", html`<code class="trx" data-copy="Transaction id">${payment.trxId}</code>`),
    factRow("Reference", payment.refTrx),
    factRow("Status", paymentBadge(payment)),
    factRow("Amount", view.money(payment.amount, payment.currency)),
    factRow("Fee", payment.fee === null ? "–" : view.money(payment.fee, payment.currency)),
    factRow("Net", payment.net === null ? "–" : view.money(payment.net, payment.currency)),
    factRow("Refunded", view.money(payment.refundedAmount, payment.currency)),
    factRow("Description", payment.description ?? "–"),
    factRow("Customer", [payment.customerName, payment.customerEmail].filter((part) => part !== null).join(", ") || "–")
  ]}</tbody></table></section>`
}

const attemptText = (attempt: PaymentDelivery["attempts"][number]) =>
  html`${timeText(attempt.at)}: ${attempt.statusCode === null ? "no answer" : `HTTP ${attempt.statusCode}`}${attempt.error === null ? "" : ` (${attempt.error})`}, ${attempt.durationMs} ms`

const deliveryItem = (view: PaymentDetailView, delivery: PaymentDelivery) => {
  const { event } = delivery
  const redeliver = view.frame.visitor.role === "owner"
    ? html`<form class="inline" method="post" action="${view.frame.home}/events/${encodeURIComponent(event.id)}/redeliver">${formTokenFields(view.frame)}<input type="hidden" name="return_to" value="${`/payments/${view.history.payment.trxId}`}"><button type="submit" class="secondary" aria-label="Redeliver ${event.event} event ${event.id}">Redeliver</button></form>`
    : ""
  const attempts = delivery.attempts.length === 0 ? html`<p class="muted">No attempt yet.</p>` : html`<ul>${delivery.attempts.map((attempt) => html`<li>${attemptText(attempt)}</li>`)}</ul>`
  return html`${timeText(event.createdAt)}: webhook <strong>${event.event}</strong> to ${event.url}, ${statusLabel(event.status)}${
    event.lastError === null ? "" : html` <span class="muted">${event.lastError}</span>`
  }${attempts}${redeliver}`
}

const timeline = (view: PaymentDetailView) => {
  const { payment, choices, refunds, deliveries } = view.history
  const items: Array<{ readonly at: bigint; readonly html: Html; readonly delivery?: true }> = [
    { at: payment.createdAt, html: html`${timeText(payment.createdAt)}: created, ${view.money(payment.amount, payment.currency)}` },
    ...choices.map(({ attempt, gateway }) => ({ at: attempt.beganAt, html: html`${timeText(attempt.beganAt)}: customer chose ${gateway?.name ?? `gateway ${attempt.gatewayId}`}` })),
    ...(payment.completedAt === null ? [] : [{
      at: payment.completedAt,
      html: html`${timeText(payment.completedAt)}: ${payment.status === "success" ? "completed" : `failed (${payment.failureReason ?? "failed"})`}`
    }]),
    ...refunds.map((refund) => ({
      at: refund.createdAt,
      html: html`${timeText(refund.createdAt)}: refunded ${view.money(refund.amount, refund.currency)}${refund.reason === null ? "" : `: ${refund.reason}`}`
    })),
    ...deliveries.map((delivery) => ({ at: delivery.event.createdAt, html: deliveryItem(view, delivery), delivery: true as const }))
  ]
  const ordered = [...items].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0))
  return html`<section class="card" aria-labelledby="timeline"><h2 id="timeline">Timeline</h2><ol class="timeline">${ordered.map((item) => (item.delivery ? html`<li class="delivery">${item.html}</li>` : html`<li>${item.html}</li>`))}</ol></section>`
}

const refundForm = (view: PaymentDetailView) => {
  const { payment } = view.history
  const left = view.refundable
  if (view.frame.visitor.role !== "owner" || left === 0n) return ""
  return html`<section class="card" aria-labelledby="refund"><h2 id="refund">Refund</h2>
<form method="post" action="${view.frame.home}/payments/${encodeURIComponent(payment.trxId)}/refund/review">${formTokenFields(view.frame)}
<input type="hidden" name="idempotency_key" value="${view.refundKey}">
<label for="refund-amount">Amount (${payment.currency}), up to ${view.money(left, payment.currency)}</label>
<input id="refund-amount" name="amount" inputmode="decimal" required maxlength="40" value="${toCurrencyString(left, view.exponent)}">
<label for="refund-reason">Reason (optional)</label><input id="refund-reason" name="reason" maxlength="255">
<button type="submit" class="primary">Review refund</button>
</form></section>`
}

export const paymentDetailPage = (view: PaymentDetailView) =>
  framedPage(view.frame, "/payments", `Payment ${view.history.payment.refTrx}`,
    html`${noticeBox(view.notice)}${problemBox(view.problem)}<p><a href="${linkTo(view.frame, "/payments")}">All payments</a></p>${facts(view)}${paymentDisputes(view.frame, view.money, view.at, view.disputes)}${refundForm(view)}${timeline(view)}`)

export interface RefundConfirmView {
  readonly frame: PageFrame
  readonly payment: Payment
  readonly amountText: string
  readonly amount: string
  readonly reason: string
  readonly idempotencyKey: string
}

/** The refund asked for, said back once before money moves; the button carries the same key, so a double click refunds once. */
export const refundConfirmPage = (view: RefundConfirmView) =>
  framedPage(view.frame, "/payments", "Confirm the refund", html`<section class="card">
<p>Refund <strong>${view.amountText}</strong> of payment <code class="trx">${view.payment.trxId}</code> (${view.payment.refTrx})${
    view.reason === "" ? "" : `, reason: ${view.reason}`
  }? Money leaves the ${view.payment.currency} wallet at once.</p>
<form method="post" action="${view.frame.home}/payments/${encodeURIComponent(view.payment.trxId)}/refund">${formTokenFields(view.frame)}
<input type="hidden" name="idempotency_key" value="${view.idempotencyKey}"><input type="hidden" name="amount" value="${view.amount}"><input type="hidden" name="reason" value="${view.reason}">
<div class="actions"><button type="submit" class="primary">Refund ${view.amountText}</button><a class="button" href="${linkTo(view.frame, `/payments/${encodeURIComponent(view.payment.trxId)}`)}">Cancel</a></div>
</form></section>`)

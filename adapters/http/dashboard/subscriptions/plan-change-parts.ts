import { toFixed8String } from "../../../../core/money/format.js"
import { upcomingInvoices } from "../../../../core/subscriptions/billing-schedule.js"
import { BillingCycle, type Invoice, type Subscription } from "../../../../core/subscriptions/subscription.js"
import { html } from "../../pages/html.js"
import { formTokenFields, type PageFrame } from "../layout.js"
import { factRow } from "../page-parts.js"
import { type MoneyText, timeText } from "../page-text.js"

/** How many coming invoices the schedule shows. */
const SCHEDULED = 4

interface PlanChangeView {
  readonly frame: PageFrame
  readonly money: MoneyText
  readonly subscription: Subscription
  /** Newest first: the open one, if any, is what the schedule waits for. */
  readonly invoices: ReadonlyArray<Invoice>
}

/** Trial, pause, stored change and credit, each only when there is one. */
const changeFacts = (view: PlanChangeView) => {
  const { money, subscription: s } = view
  const pending = [
    s.pendingAmount === null ? undefined : money(s.pendingAmount, s.currency),
    s.pendingCycle === null ? undefined : s.pendingCycle.replace("_", "-")
  ].filter((part) => part !== undefined).join(", ")
  const rows = [
    s.trialEnd === null ? "" : factRow("Trial ends", timeText(s.trialEnd)),
    s.pausedAt === null ? "" : factRow("Paused", html`since ${timeText(s.pausedAt)}${s.resumesAt === null ? "" : html`, resumes ${timeText(s.resumesAt)}`}`),
    pending === "" ? "" : factRow("Change at next renewal", pending),
    s.credit === 0n ? "" : factRow(s.credit > 0n ? "Credit" : "Carried to next invoice", money(s.credit > 0n ? s.credit : -s.credit as typeof s.credit, s.currency))
  ]
  return rows.every((row) => row === "") ? "" : html`<table><tbody>${rows}</tbody></table>`
}

/**
 * Why no invoice is scheduled, saying what is awaited instead: an unpaid invoice (and, past due, its
 * dunning) holds the schedule until it is paid.
 */
const nothingScheduled = (view: PlanChangeView) => {
  const { money, subscription: s } = view
  if (s.pausedAt !== null) return "No invoice is scheduled while paused."
  const open = s.status === "cancelled" ? undefined : view.invoices.find((invoice) => invoice.status === "pending")
  if (open === undefined) return s.cancelAtPeriodEnd && s.currentPeriodEnd !== null ? html`No invoice is scheduled: the subscription ends ${timeText(s.currentPeriodEnd)}.` : "No invoice is scheduled."
  const awaited = html`Awaiting payment of invoice <span class="nowrap">${open.number ?? `#${open.sequence}`}</span> (${money(open.amount, open.currency)}).`
  if (s.status !== "past_due") return html`${awaited} The next invoices are scheduled once it is paid.`
  const d = s.dunning
  const dunning = d === null
    ? "No reminders are scheduled."
    : html`Dunning is under way: ${d.step < d.reminderDays.length ? "next reminder" : "final action"} due ${timeText(d.nextAt)}.`
  return html`${awaited} ${dunning} The next invoices are scheduled once it is paid.`
}

/** The next invoices as the scheduler will open them if nothing changes. */
const schedule = (view: PlanChangeView) => {
  const { money, subscription: s } = view
  const upcoming = upcomingInvoices(s, SCHEDULED)
  if (upcoming.length === 0) return html`<p class="muted" data-testid="schedule-none">${nothingScheduled(view)}</p>`
  return html`<table class="cards"><caption class="muted">The next ${upcoming.length} invoices if nothing changes</caption><thead><tr><th scope="col">Opens</th><th scope="col">Period to</th><th scope="col" class="amount">Amount</th></tr></thead><tbody>${
    upcoming.map((invoice) =>
      html`<tr><td data-label="Opens">${timeText(invoice.at)}</td><td data-label="Period to">${timeText(invoice.periodEnd)}</td><td data-label="Amount" class="amount">${
        invoice.amount === 0n ? "paid by credit" : money(invoice.amount, s.currency)
      }</td></tr>`)
  }</tbody></table>`
}

const action = (frame: PageFrame, subscription: Subscription, verb: string) =>
  `${frame.home}/subscriptions/${encodeURIComponent(subscription.id)}/${verb}`

/** An owner's pause (with an optional automatic resume) or resume. */
const pauseForm = (view: PlanChangeView) => {
  const { frame, subscription: s } = view
  if (s.pausedAt !== null) {
    return html`<form method="post" action="${action(frame, s, "resume")}">${formTokenFields(frame)}
<p>Billing resumes at the next period boundary.</p><div class="actions"><button type="submit" class="secondary">Resume</button></div></form>`
  }
  if (s.status !== "active") return ""
  return html`<form method="post" action="${action(frame, s, "pause")}">${formTokenFields(frame)}
<p>While paused no invoice is made; the paid period runs to its end.</p>
<label for="pause-resumes-at">Resume automatically on (UTC, optional)</label><input id="pause-resumes-at" name="resumes_at" type="datetime-local">
<div class="actions"><button type="submit" class="secondary">Pause</button></div></form>`
}

/** An owner's change of amount and/or cycle, with its proration. */
const changeForm = (view: PlanChangeView) => {
  const { frame, subscription: s } = view
  const cycles = BillingCycle.literals.map((cycle) => html`<option value="${cycle}">${cycle.replace("_", "-")}</option>`)
  return html`<form method="post" action="${action(frame, s, "update")}">${formTokenFields(frame)}
<label for="change-amount">New amount (${s.currency}), now ${toFixed8String(s.amount).replace(/\.?0+$/, "")}; empty keeps it</label><input id="change-amount" name="payment_amount" inputmode="decimal" maxlength="32">
<label for="change-cycle">Billing cycle</label><select id="change-cycle" name="billing_cycle"><option value="">Keep ${s.billingCycle.replace("_", "-")}</option>${cycles}</select>
<label for="change-proration">When</label><select id="change-proration" name="proration"><option value="now">Now, prorated (credit the unused part, charge the difference)</option><option value="next_period">At the next renewal</option><option value="none">From the next invoice, no proration</option></select>
<div class="actions"><button type="submit">Change plan</button></div></form>`
}

/** The detail page's section on trials, pauses, changes and the coming invoices; forms for owners. */
export const planChangeSection = (view: PlanChangeView) => {
  const owner = view.frame.visitor.role === "owner" && view.subscription.status !== "cancelled"
  return html`<section class="card" aria-labelledby="plan"><h2 id="plan">Plan and schedule</h2>${changeFacts(view)}${schedule(view)}${
    owner ? html`${pauseForm(view)}${changeForm(view)}` : ""
  }</section>`
}

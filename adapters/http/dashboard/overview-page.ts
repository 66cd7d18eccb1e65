import type { MerchantOverview } from "../../../core/merchants/merchant-overview.js"
import type { CurrencyTotal } from "../../../core/payments/payment-summary.js"
import { html } from "../pages/html.js"
import { dashboardPage, linkTo, type PageFrame } from "./layout.js"
import { type MoneyText, timeText } from "./page-text.js"

export interface OverviewView {
  readonly frame: PageFrame
  readonly money: MoneyText
  readonly figures: MerchantOverview
}

const totals = (view: OverviewView, heading: string, id: string, rows: ReadonlyArray<CurrencyTotal>) =>
  html`<section class="card" aria-labelledby="${id}"><h2 id="${id}">${heading}</h2>${
    rows.length === 0
      ? html`<p>No payment completed.</p>`
      : html`<ul>${rows.map((row) => html`<li><span class="figure">${view.money(row.volume, row.currency)}</span> in ${row.count} payment${row.count === 1 ? "" : "s"}</li>`)}</ul>`
  }</section>`

const balances = (view: OverviewView) =>
  html`<section class="card" aria-labelledby="balances"><h2 id="balances">Balances</h2>${
    view.figures.balances.length === 0
      ? html`<p>No wallet in this environment yet: the operator opens them.</p>`
      : html`<ul>${view.figures.balances.map((wallet) => html`<li><span class="figure">${view.money(wallet.balance, wallet.currency)}</span>${wallet.active ? "" : " (inactive)"}</li>`)}</ul>`
  }<p><a class="button" href="${linkTo(view.frame, "/statements")}">Statements</a></p></section>`

const webhooks = (view: OverviewView) => {
  const { targets, failedEvents } = view.figures.failingDeliveries
  const healthy = targets.length === 0 && failedEvents === 0
  const items = [
    ...targets.map((target) => html`<li>${target.target} has failed every attempt since ${timeText(target.failingSince)}${target.pausedAt === null ? "" : ", paused: its events wait"}.</li>`),
    ...(failedEvents === 0 ? [] : [html`<li>${failedEvents} event${failedEvents === 1 ? "" : "s"} used up every attempt.</li>`])
  ]
  return html`<section class="card" aria-labelledby="webhook-health"><h2 id="webhook-health">Webhooks</h2>${
    healthy ? html`<p>Every receiver is answering.</p>` : html`<div class="problem" role="status"><ul>${items}</ul></div>`
  }<p><a class="button" href="${linkTo(view.frame, "/webhooks")}">Webhook deliveries</a></p></section>`
}

export const overviewPage = (view: OverviewView) =>
  dashboardPage(view.frame, "", "Overview", html`<div class="grid">${balances(view)}${totals(view, "Today (UTC)", "today", view.figures.today)}${
    totals(view, "Last 7 days", "week", view.figures.lastSevenDays)
  }${webhooks(view)}</div>`)

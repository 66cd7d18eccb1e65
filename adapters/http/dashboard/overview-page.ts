import type { MerchantOverview } from "../../../core/merchants/merchant-overview.js"
import type { CurrencyTotal } from "../../../core/payments/payment-summary.js"
import { escapeHtml } from "../pages/house-style.js"
import { dashboardPage, linkTo, type PageFrame } from "./layout.js"
import { type MoneyText, timeText } from "./page-text.js"

export interface OverviewView {
  readonly frame: PageFrame
  readonly money: MoneyText
  readonly figures: MerchantOverview
}

const totals = (view: OverviewView, heading: string, id: string, rows: ReadonlyArray<CurrencyTotal>) =>
  `<section class="card" aria-labelledby="${id}"><h2 id="${id}">${heading}</h2>${
    rows.length === 0
      ? "<p>No payment completed.</p>"
      : `<ul>${rows.map((row) => `<li><span class="figure">${escapeHtml(view.money(row.volume, row.currency))}</span> in ${row.count} payment${row.count === 1 ? "" : "s"}</li>`).join("")}</ul>`
  }</section>`

const balances = (view: OverviewView) =>
  `<section class="card" aria-labelledby="balances"><h2 id="balances">Balances</h2>${
    view.figures.balances.length === 0
      ? "<p>No wallet in this environment yet: the operator opens them.</p>"
      : `<ul>${view.figures.balances.map((wallet) => `<li><span class="figure">${escapeHtml(view.money(wallet.balance, wallet.currency))}</span>${wallet.active ? "" : " (inactive)"}</li>`).join("")}</ul>`
  }<p><a class="button" href="${escapeHtml(linkTo(view.frame, "/statements"))}">Statements</a></p></section>`

const webhooks = (view: OverviewView) => {
  const { targets, failedEvents } = view.figures.failingDeliveries
  const healthy = targets.length === 0 && failedEvents === 0
  const items = [
    ...targets.map((target) => `<li>${escapeHtml(target.target)} has failed every attempt since ${timeText(target.failingSince)}${target.pausedAt === null ? "" : ", paused: its events wait"}.</li>`),
    ...(failedEvents === 0 ? [] : [`<li>${failedEvents} event${failedEvents === 1 ? "" : "s"} used up every attempt.</li>`])
  ]
  return `<section class="card" aria-labelledby="webhook-health"><h2 id="webhook-health">Webhooks</h2>${
    healthy ? "<p>Every receiver is answering.</p>" : `<div class="problem" role="status"><ul>${items.join("")}</ul></div>`
  }<p><a class="button" href="${escapeHtml(linkTo(view.frame, "/webhooks"))}">Webhook deliveries</a></p></section>`
}

export const overviewPage = (view: OverviewView) =>
  dashboardPage(view.frame, "", "Overview", `<div class="grid">${balances(view)}${totals(view, "Today (UTC)", "today", view.figures.today)}${
    totals(view, "Last 7 days", "week", view.figures.lastSevenDays)
  }${webhooks(view)}</div>`)

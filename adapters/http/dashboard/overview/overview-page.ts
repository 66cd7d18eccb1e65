import type { MerchantOverview } from "../../../../core/merchants/merchant-overview.js"
import type { CurrencyTotal } from "../../../../core/payments/payment-summary.js"
import { html } from "../../pages/html.js"
import { framedPage, linkTo, type PageFrame } from "../layout.js"
import { type MoneyText, timeText } from "../page-text.js"
import { volumeChart } from "./volume-chart.js"

export interface OverviewView {
  readonly frame: PageFrame
  readonly money: MoneyText
  readonly figures: MerchantOverview
}

/** Figures as figures: the amount large, what it counts under it; no list bullets. */
const figureList = (items: ReadonlyArray<{ readonly value: string; readonly note: string }>) =>
  html`<dl class="figures">${items.map((item) => html`<div><dt class="figure">${item.value}</dt><dd class="muted">${item.note}</dd></div>`)}</dl>`

const totals = (view: OverviewView, heading: string, id: string, rows: ReadonlyArray<CurrencyTotal>) =>
  html`<section class="card" aria-labelledby="${id}"><h2 id="${id}">${heading}</h2>${
    rows.length === 0
      ? html`<p class="muted">No payment completed.</p>`
      : figureList(rows.map((row) => ({ value: view.money(row.volume, row.currency), note: `in ${row.count} payment${row.count === 1 ? "" : "s"}` })))
  }</section>`

const balances = (view: OverviewView) =>
  html`<section class="card" aria-labelledby="balances"><h2 id="balances">Balances</h2>${
    view.figures.balances.length === 0
      ? html`<p>No wallet in this environment yet: the operator opens them.</p>`
      : figureList(view.figures.balances.map((wallet) => ({ value: view.money(wallet.balance, wallet.currency), note: wallet.active ? "in the wallet" : "in an inactive wallet" })))
  }<p><a class="button" href="${linkTo(view.frame, "/statements")}">Statements</a></p></section>`

const webhooks = (view: OverviewView) => {
  const { targets, failedEvents } = view.figures.failingDeliveries
  const healthy = targets.length === 0 && failedEvents === 0
  const items = [
    ...targets.map((target) => html`<p>${target.target} has failed every attempt since ${timeText(target.failingSince)}${target.pausedAt === null ? "" : ", paused: its events wait"}.</p>`),
    ...(failedEvents === 0 ? [] : [html`<p>${failedEvents} event${failedEvents === 1 ? "" : "s"} used up every attempt.</p>`])
  ]
  return html`<section class="card" aria-labelledby="webhook-health"><h2 id="webhook-health">Webhooks</h2>${
    healthy ? html`<p>Every receiver is answering.</p>` : html`<div class="problem wrap" role="status">${items}</div>`
  }<p><a class="button" href="${linkTo(view.frame, "/webhooks")}">Webhook deliveries</a></p></section>`
}

/** The last 30 days, one chart per currency taken; none yet says how the first payment is made. */
const volume = (view: OverviewView) => {
  const { since, days } = view.figures.lastThirtyDays
  const currencies = [...new Set(days.map((total) => total.currency))]
  return html`<section class="card" aria-labelledby="volume"><h2 id="volume">Last 30 days</h2>${
    currencies.length === 0
      ? html`<p>No payment completed in the last 30 days. Your site starts one with <code>POST /api/v1/initiate-payment</code>; the <a href="${
        linkTo(view.frame, "/developers")
      }">Developers</a> page has your keys.</p>`
      : currencies.map((currency) => volumeChart(view.money, since, currency, days.filter((total) => total.currency === currency)))
  }</section>`
}

export const overviewPage = (view: OverviewView) =>
  framedPage(view.frame, "", "Overview", html`${volume(view)}<div class="grid">${balances(view)}${totals(view, "Today (UTC)", "today", view.figures.today)}${
    totals(view, "Last 7 days", "week", view.figures.lastSevenDays)
  }${webhooks(view)}</div>`)

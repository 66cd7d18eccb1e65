import type { WalletBalance } from "../../../../core/balances/balance-sheet.js"
import { delayDaysIn, holdsReserve, type PayoutSettings } from "../../../../core/balances/payout-settings.js"
import { toJsonNumberText } from "../../../../core/money/format.js"
import { html, type Html } from "../../pages/html.js"
import { framedPage, linkTo, type PageFrame } from "../layout.js"
import { factRow } from "../page-parts.js"
import { type MoneyText, timeText } from "../page-text.js"

export interface BalancePageView {
  readonly frame: PageFrame
  readonly money: MoneyText
  /** GET /api/v1/balances's own figures: the balance sheet of core/balances. */
  readonly sheet: ReadonlyArray<WalletBalance>
  /** As the platform's operator set them; the merchant reads them only. */
  readonly settings: PayoutSettings
}

const days = (count: number) => `${count} ${count === 1 ? "day" : "days"}`

/** The payout delay in effect here, and whether it is the platform's own choice or the environment's default. */
const delayText = (view: BalancePageView) => {
  const delay = delayDaysIn(view.settings, view.frame.environment)
  const source = view.settings.payoutDelayDays === null ? `the ${view.frame.environment} default` : "set by the platform"
  return delay === 0 ? `none: payments are payable at once (${source})` : `${days(delay)} after each payment (${source})`
}

const reserveText = (settings: PayoutSettings) =>
  holdsReserve(settings)
    ? `${toJsonNumberText(settings.reservePercent)} % of each payment's net, held ${days(settings.reserveDays)}`
    : "none"

const SCHEDULES: Record<PayoutSettings["payoutSchedule"], string> = {
  manual: "none: you request each payout",
  daily: "every day (UTC)",
  weekly: "every Monday (UTC)",
  monthly: "on the 1st of each month (UTC)"
}

/** One figure of a currency: its name, its amount, and a sentence saying what it is. */
const figure = (id: string, label: string, amount: string, why: string, parts: { readonly when?: Html; readonly next?: Html } = {}) =>
  html`<div id="${id}"><dt>${label}</dt><dd class="amount">${amount}</dd>${parts.when === undefined ? "" : html`<dd class="when">${parts.when}</dd>`}<dd class="why">${why}</dd>${
    parts.next === undefined ? "" : html`<dd class="next">${parts.next}</dd>`
  }</div>`

const currencyCard = (view: BalancePageView, balance: WalletBalance) => {
  const { frame, money, settings } = view
  const currency = balance.wallet.currency
  const write = (amount: WalletBalance["available"]) => money(amount, currency)
  const delay = delayDaysIn(settings, frame.environment)
  const key = `${currency}`
  const pendingWhen = balance.nextAvailableAt === null ? undefined : html`becomes available on ${timeText(balance.nextAvailableAt)}`
  const pendingWhy = delay === 0
    ? "Payments become available at once here: nothing waits."
    : `The net of payments completed in the last ${days(delay)}: each becomes available ${days(delay)} after it completed. Part of the balance.`
  const reservedWhy = holdsReserve(settings)
    ? `The rolling reserve: ${toJsonNumberText(settings.reservePercent)} % of each payment's net, held ${days(settings.reserveDays)} and then returned to the balance. Not part of it.`
    : "No rolling reserve is set for your account; anything shown here was held earlier and returns when its days are up. Not part of the balance."
  return html`<section class="card" aria-labelledby="balance-${key}"><h2 id="balance-${key}">${currency}</h2>
<p class="muted">Balance</p><p class="figure">${write(balance.wallet.balance)}</p>
<p class="muted">What your ${currency} wallet holds: available and pending together${balance.wallet.balance < 0n ? "; below zero, the debt is recovered from later payments" : ""}.</p>
<dl class="breakdown">${[
    figure(`available-${key}`, "Available", write(balance.available), "Can be paid out now: the balance less what is pending.", {
      next: html`<a href="${linkTo(frame, "/payouts")}">Request a payout</a>`
    }),
    figure(`pending-${key}`, "Pending", write(balance.pending), pendingWhy, pendingWhen === undefined ? {} : { when: pendingWhen }),
    figure(`reserved-${key}`, "Reserved", write(balance.reserved), reservedWhy),
    figure(`in-payouts-${key}`, "In payouts", write(balance.inPayouts),
      "Requested as payouts and not yet paid. A rejected or failed payout returns to the balance. Not part of it.")
  ]}</dl></section>`
}

/** How money becomes payable for this merchant: the platform's settings, read-only here. */
const rulesCard = (view: BalancePageView) =>
  html`<section class="card" aria-labelledby="rules"><h2 id="rules">How your money becomes payable</h2><table><tbody>${[
    factRow("Payout delay", delayText(view)),
    factRow("Rolling reserve", reserveText(view.settings)),
    factRow("Automatic payouts", SCHEDULES[view.settings.payoutSchedule])
  ]}</tbody></table><p class="muted">The platform sets these for your account; ask its operator to change them.</p></section>`

export const balancePage = (view: BalancePageView) => {
  const cards = view.sheet.length === 0
    ? html`<section class="card" aria-label="Balances"><p>No balance yet: the platform opens a balance for each currency you take.</p></section>`
    : view.sheet.map((balance) => currencyCard(view, balance))
  return framedPage(view.frame, "/balances", "Balances", html`<div class="grid balances">${cards}${rulesCard(view)}</div>`)
}

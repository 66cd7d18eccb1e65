import type { StatementEntry, StatementPage } from "../../../../core/wallets/statement.js"
import type { Wallet } from "../../../../core/wallets/wallet.js"
import { html } from "../../pages/html.js"
import { cursorPager } from "../page-parts.js"
import { framedPage, linkTo, type PageFrame } from "../layout.js"
import { type MoneyText, timeText } from "../page-text.js"

export interface StatementView {
  readonly frame: PageFrame
  readonly money: MoneyText
  readonly wallets: ReadonlyArray<Wallet>
  /** The wallet shown, with a page of its entries; undefined when the merchant has none here. */
  readonly statement: StatementPage | undefined
  readonly next: string | undefined
  readonly first: string | undefined
}

const KIND: Record<StatementEntry["kind"], string> = {
  payment_credit: "Payment",
  refund_debit: "Refund",
  adjustment: "Adjustment",
  payout_debit: "Payout",
  payout_return: "Payout returned",
  reserve_hold: "Reserve held",
  reserve_release: "Reserve released",
  dispute_debit: "Dispute",
  dispute_return: "Dispute won"
}

const walletPicker = (view: StatementView) =>
  view.wallets.length < 2 ? "" : html`<nav aria-label="Wallets"><ul class="actions">${view.wallets.map((wallet) =>
    html`<li><a class="button" href="${linkTo(view.frame, "/statements", { wallet: String(wallet.id) })}"${
      wallet.id === view.statement?.wallet.id ? html` aria-current="page"` : ""
    }>${wallet.currency}</a></li>`)}</ul></nav>`

const row = (view: StatementView, wallet: Wallet, entry: StatementEntry) => {
  const what = entry.paymentTrxId === null ? entry.reference : html`<a href="${linkTo(view.frame, `/payments/${encodeURIComponent(entry.paymentTrxId)}`)}"><code class="trx">${entry.paymentTrxId}</code></a>`
  return html`<tr><td data-label="When">${timeText(entry.createdAt)}</td><td data-label="Kind">${KIND[entry.kind]}</td><td data-label="Reference" class="wrap">${what}${
    entry.memo === null ? "" : html` <span class="muted">${entry.memo}</span>`
  }</td><td data-label="Amount" class="amount">${view.money(entry.amount, wallet.currency)}</td><td data-label="Balance" class="amount">${view.money(entry.balanceAfter, wallet.currency)}</td></tr>`
}

/** A wallet's ledger, newest first, each line with the balance after it; the whole of it as CSV. */
export const statementPage = (view: StatementView) => {
  const statement = view.statement
  if (statement === undefined) return framedPage(view.frame, "/statements", "Statements", html`<div class="card"><p>No wallet in this environment yet: the operator opens them.</p></div>`)
  const { wallet } = statement
  const table = statement.entries.length === 0
    ? html`<p>No entry yet.</p>`
    : html`<table class="cards"><caption class="muted">Newest first; times in UTC</caption><thead><tr><th scope="col">When</th><th scope="col">Kind</th><th scope="col">Reference</th><th scope="col" class="amount">Amount</th><th scope="col" class="amount">Balance</th></tr></thead><tbody>${
      statement.entries.map((entry) => row(view, wallet, entry))
    }</tbody></table>`
  const pager = cursorPager(view.first, view.next, { first: "Newest entries", next: "Older entries" })
  const csv = `${view.frame.home}/statements/${wallet.id}.csv?environment=${view.frame.environment}`
  return framedPage(view.frame, "/statements", `Statement: ${wallet.currency}`, html`${walletPicker(view)}<section class="card" aria-labelledby="balance"><h2 id="balance">Balance ${
    view.money(wallet.balance, wallet.currency)}</h2><p><a class="button" href="${csv}" download>Download CSV (every entry)</a></p>${table}${pager}</section>`)
}

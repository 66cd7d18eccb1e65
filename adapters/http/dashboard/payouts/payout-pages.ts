import type { Payout } from "../../../../core/payouts/payout.js"
import type { PayoutDestination } from "../../../../core/payouts/payout-destination.js"
import { html, type Html } from "../../pages/html.js"
import { framedPage, formTokenFields, linkTo, type PageFrame } from "../layout.js"
import { cursorPager, factRow, fieldProblem, fieldState, noticeBox, problemBox } from "../page-parts.js"
import { type MoneyText, statusLabel, timeText } from "../page-text.js"
import type { PayableBalance } from "./payable-balances.js"

/** A refused payout form, kept to be corrected: its currency names the form, its fields what each was told. */
export interface PayoutFormState {
  readonly currency: string
  readonly amount: string
  readonly destinationId: string
  readonly problems: Readonly<Record<string, ReadonlyArray<string>>>
}

export interface PayoutListView {
  readonly frame: PageFrame
  readonly money: MoneyText
  readonly balances: ReadonlyArray<PayableBalance>
  /** The merchant's bank accounts in this environment (deleted ones are not offered). */
  readonly destinations: ReadonlyArray<PayoutDestination>
  readonly payouts: ReadonlyArray<Payout>
  /** A fresh key for each payout form: the same form sent twice asks once. */
  readonly formKey: string
  readonly sent: PayoutFormState | undefined
  /** The next page's link; undefined on the last page. */
  readonly next: string | undefined
  /** Set when the page is past the first: a way back to it. */
  readonly first: string | undefined
  readonly notice: string | undefined
  /** A cursor that could not be read. */
  readonly problem: string | undefined
}

const payoutLink = (frame: PageFrame, id: string) => linkTo(frame, `/payouts/${encodeURIComponent(id)}`)
const destinationsLink = (frame: PageFrame) => linkTo(frame, "/payout-destinations")

/** A bank account as the merchant recognises it: the masked IBAN, then whose it is, one under the other. */
export const destinationText = (destination: PayoutDestination | undefined, id: string): Html =>
  destination === undefined
    ? html`<span class="account"><span class="muted">a deleted bank account</span><code class="trx">${id}</code></span>`
    : html`<span class="account"><span class="iban">${destination.ibanMasked}</span><span class="muted">${destination.accountHolder}</span></span>`

/** The masked IBAN in a few characters, where a line has no room for it (a select's option, a button's name): "DE89 … 3000". */
export const shortIban = (masked: string): string => {
  const plain = masked.replace(/\s/g, "")
  return `${plain.slice(0, 4)} … ${plain.slice(-4)}`
}

/** The pages of the section, each a link, the current one marked. */
export const payoutTabs = (frame: PageFrame, current: "payouts" | "destinations") =>
  html`<nav class="tabs" aria-label="Payouts pages"><ul><li><a href="${linkTo(frame, "/payouts")}"${current === "payouts" ? html` aria-current="page"` : ""}>Payouts</a></li><li><a href="${
    destinationsLink(frame)
  }"${current === "destinations" ? html` aria-current="page"` : ""}>Bank accounts</a></li></ul></nav>`

/** An owner's form asking for a payout from one currency's balance, to one of that currency's bank accounts. */
const requestForm = (view: PayoutListView, balance: PayableBalance, accounts: ReadonlyArray<PayoutDestination>) => {
  const { frame } = view
  const sent = view.sent?.currency === balance.currency ? view.sent : undefined
  const problems = sent?.problems ?? {}
  const amountId = `payout-amount-${balance.currency}`
  const destinationId = `payout-destination-${balance.currency}`
  const destinationProblems = [...(problems["destination_id"] ?? []), ...(problems["currency"] ?? [])]
  const options = accounts.map((account) =>
    html`<option value="${account.id}"${sent?.destinationId === account.id ? html` selected` : ""}>${shortIban(account.ibanMasked)} · ${account.accountHolder}</option>`)
  return html`<form method="post" action="${frame.home}/payouts/request" aria-label="Request a payout in ${balance.currency}">${formTokenFields(frame)}
<input type="hidden" name="currency" value="${balance.currency}"><input type="hidden" name="idempotency_key" value="${view.formKey}">
<label for="${amountId}">Amount (${balance.currency})</label>
<input id="${amountId}" name="amount" inputmode="decimal" required maxlength="40" autocomplete="off" value="${sent?.amount ?? ""}"${fieldState(amountId, problems["amount"])}>
${fieldProblem(amountId, problems["amount"])}
<label for="${destinationId}">To bank account</label>
<select id="${destinationId}" name="destination_id" required${fieldState(destinationId, destinationProblems)}>${options}</select>
${fieldProblem(destinationId, destinationProblems)}
<p class="muted">The amount leaves this balance at once and waits for the platform's approval; a rejected or failed payout comes back.</p>
<button type="submit" class="primary">Request a payout</button>
</form>`
}

/** One currency: what a payout can take now, and (for owners) the form asking for one. */
const balanceCard = (view: PayoutListView, balance: PayableBalance) => {
  const { frame } = view
  const accounts = view.destinations.filter((destination) => destination.currency === balance.currency)
  const owner = frame.visitor.role === "owner"
  const id = `balance-${balance.currency}`
  const form = !owner
    ? ""
    : accounts.length === 0
    ? html`<p>No ${balance.currency} bank account yet. <a href="${destinationsLink(frame)}">Add a bank account</a> to pay this balance out.</p>`
    : requestForm(view, balance, accounts)
  return html`<section class="card" aria-labelledby="${id}"><h2 id="${id}">${balance.currency}</h2><p class="figure">${view.money(balance.available, balance.currency)}</p><p class="muted">can be paid out now</p>${form}</section>`
}

const balancesSection = (view: PayoutListView) =>
  view.balances.length === 0
    ? html`<section class="card" aria-label="Balances"><p>No balance yet: the platform opens a balance for each currency you take.</p></section>`
    : html`<div class="grid">${view.balances.map((balance) => balanceCard(view, balance))}</div>`

const payoutRow = (view: PayoutListView, payout: Payout) => {
  const destination = view.destinations.find((each) => each.id === payout.destinationId)
  return html`<tr><td data-label="Requested">${timeText(payout.createdAt)}</td><td data-label="Payout"><a href="${payoutLink(view.frame, payout.id)}"><code class="trx">${payout.id}</code></a></td><td data-label="Amount" class="amount">${
    view.money(payout.amount, payout.currency)
  }</td><td data-label="To">${destinationText(destination, payout.destinationId)}</td><td data-label="Status">${statusLabel(payout.status)}</td><td data-label="Last change">${
    timeText(payout.updatedAt)
  }</td></tr>`
}

/** Nothing paid out yet: what comes first, a bank account, then a request. */
const noPayoutsYet = (view: PayoutListView) => {
  const owner = view.frame.visitor.role === "owner"
  const next = view.destinations.length === 0
    ? html`Payouts go to a bank account: first <a href="${destinationsLink(view.frame)}">add a bank account</a>${owner ? "" : " (an owner can)"}, then request a payout from a balance above.`
    : owner
    ? html`Request one from a balance above: the platform approves it, then sends it to your bank account.`
    : html`An owner of this account can request one from a balance above.`
  return html`<div class="empty"><p><strong>No payouts yet.</strong></p><p>${next}</p></div>`
}

/** A refused form whose currency has no balance here has no field to say it under: said at the top. */
const unplacedProblem = (view: PayoutListView) => {
  const { sent } = view
  if (sent === undefined || view.balances.some((balance) => balance.currency === sent.currency)) return view.problem
  return [view.problem, `No ${sent.currency} balance here.`, ...Object.values(sent.problems).flat()].filter((text) => text !== undefined).join(" ")
}

export const payoutListPage = (view: PayoutListView) => {
  const rows = view.payouts.length === 0
    ? view.first === undefined ? noPayoutsYet(view) : html`<p>No more payouts.</p>`
    : html`<table class="cards"><caption class="muted">Newest first; times in UTC</caption><thead><tr><th scope="col">Requested</th><th scope="col">Payout</th><th scope="col" class="amount">Amount</th><th scope="col">To</th><th scope="col">Status</th><th scope="col">Last change</th></tr></thead><tbody>${
      view.payouts.map((payout) => payoutRow(view, payout))
    }</tbody></table>`
  return framedPage(view.frame, "/payouts", "Payouts", html`${noticeBox(view.notice)}${problemBox(unplacedProblem(view))}${payoutTabs(view.frame, "payouts")}${balancesSection(view)}<section class="card" aria-labelledby="payouts"><h2 id="payouts">Payouts</h2>${rows}${
    cursorPager(view.first, view.next)
  }</section>`)
}

export interface PayoutDetailView {
  readonly frame: PageFrame
  readonly money: MoneyText
  readonly payout: Payout
  /** Its bank account; undefined once deleted. */
  readonly destination: PayoutDestination | undefined
  readonly notice: string | undefined
}

/**
 * What the payout's row tells of its history: when it was asked for, and its last change with the
 * reason or reference it carries. An approval before a payment or failure left no time of its own.
 */
const history = (view: PayoutDetailView) => {
  const { payout } = view
  const amount = view.money(payout.amount, payout.currency)
  const items: Array<Html> = [html`${timeText(payout.createdAt)}: requested; ${amount} left the ${payout.currency} balance`]
  const approvedBefore = payout.status === "paid" || payout.status === "failed"
  if (approvedBefore) items.push(html`approved by the platform`)
  switch (payout.status) {
    case "pending":
      items.push(html`<span class="muted">waiting for the platform's approval</span>`)
      break
    case "approved":
      items.push(html`${timeText(payout.updatedAt)}: approved by the platform; it is sent next`)
      break
    case "paid":
      items.push(html`${timeText(payout.updatedAt)}: paid${payout.reference === null ? "" : html`, reference <code class="trx">${payout.reference}</code>`}`)
      break
    case "failed":
    case "rejected":
      items.push(html`${timeText(payout.updatedAt)}: ${payout.status}${payout.reason === null ? "" : html`: <span class="wrap">${payout.reason}</span>`}; ${amount} came back to the balance`)
      break
  }
  return html`<section class="card" aria-labelledby="history"><h2 id="history">History</h2><ol class="timeline">${items.map((item) => html`<li>${item}</li>`)}</ol></section>`
}

export const payoutDetailPage = (view: PayoutDetailView) => {
  const { payout } = view
  const facts = html`<section class="card" aria-labelledby="facts"><h2 id="facts">Payout</h2><table><tbody>${[
    factRow("Payout id", html`<code class="trx" data-copy="Payout id">${payout.id}</code>`),
    factRow("Status", statusLabel(payout.status)),
    factRow("Amount", view.money(payout.amount, payout.currency)),
    factRow("To", destinationText(view.destination, payout.destinationId)),
    factRow("BIC", view.destination?.bic ?? "–"),
    factRow("Reason", payout.reason === null ? "–" : html`<span class="wrap">${payout.reason}</span>`),
    factRow("Reference", payout.reference === null ? "–" : html`<code class="trx">${payout.reference}</code>`),
    factRow("Requested", timeText(payout.createdAt)),
    factRow("Last change", timeText(payout.updatedAt))
  ]}</tbody></table></section>`
  return framedPage(view.frame, "/payouts", `Payout of ${view.money(payout.amount, payout.currency)}`,
    html`${noticeBox(view.notice)}<p><a href="${linkTo(view.frame, "/payouts")}">All payouts</a></p>${facts}${history(view)}`)
}

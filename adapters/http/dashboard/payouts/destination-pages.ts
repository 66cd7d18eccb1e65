import { MAX_ACCOUNT_HOLDER_LENGTH, type PayoutDestination } from "../../../../core/payouts/payout-destination.js"
import { html, type Html } from "../../pages/html.js"
import { framedPage, formTokenFields, linkTo, type PageFrame } from "../layout.js"
import { fieldProblem, fieldState, noticeBox, problemBox } from "../page-parts.js"
import { timeText } from "../page-text.js"
import { payoutTabs, shortIban } from "./payout-pages.js"

/** The add form as it was sent, kept to be corrected, with what each field was told. */
export interface BankAccountFormState {
  readonly account_holder: string
  readonly iban: string
  readonly bic: string
  readonly currency: string
  readonly problems: Readonly<Record<string, ReadonlyArray<string>>>
}

export interface DestinationListView {
  readonly frame: PageFrame
  readonly destinations: ReadonlyArray<PayoutDestination>
  /** The merchant's currencies: the ones a bank account may be in. */
  readonly currencies: ReadonlyArray<string>
  readonly sent: BankAccountFormState | undefined
  readonly notice: string | undefined
  /** A refusal that belongs to no field (the limit of bank accounts). */
  readonly problem: string | undefined
}

const deleteButton = (frame: PageFrame, destination: PayoutDestination) =>
  html`<form class="inline" method="post" action="${frame.home}/payout-destinations/${encodeURIComponent(destination.id)}/delete/review">${formTokenFields(frame)}<button type="submit" class="secondary" aria-label="Delete bank account ${shortIban(destination.ibanMasked)}">Delete</button></form>`

const row = (view: DestinationListView, destination: PayoutDestination) =>
  html`<tr><td data-label="Bank account"><span class="iban">${destination.ibanMasked}</span></td><td data-label="Holder" class="wrap">${destination.accountHolder}</td><td data-label="BIC">${
    destination.bic ?? "–"
  }</td><td data-label="Currency">${destination.currency}</td><td data-label="Added">${timeText(destination.createdAt)}</td>${
    view.frame.visitor.role === "owner" ? html`<td data-label="Action">${deleteButton(view.frame, destination)}</td>` : ""
  }</tr>`

const table = (view: DestinationListView) =>
  view.destinations.length === 0
    ? html`<div class="empty"><p><strong>No bank accounts yet.</strong></p><p>${
      view.frame.visitor.role === "owner" ? "Add the account your payouts should go to below." : "An owner of this account can add the account payouts go to."
    }</p></div>`
    : html`<table class="cards"><caption class="muted">Oldest first; only the last characters of each IBAN are shown</caption><thead><tr><th scope="col">Bank account</th><th scope="col">Holder</th><th scope="col">BIC</th><th scope="col">Currency</th><th scope="col">Added</th>${
      view.frame.visitor.role === "owner" ? html`<th scope="col">Action</th>` : ""
    }</tr></thead><tbody>${view.destinations.map((destination) => row(view, destination))}</tbody></table>`

/** A labelled text input of the add form, with what it was told when refused. */
const textField = (view: DestinationListView, name: "account_holder" | "iban" | "bic", label: string, attributes: Html) => {
  const id = `bank-${name.replace("_", "-")}`
  const problems = view.sent?.problems[name]
  return html`<label for="${id}">${label}</label><input id="${id}" name="${name}" value="${view.sent?.[name] ?? ""}" ${attributes}${fieldState(id, problems)}>${fieldProblem(id, problems)}`
}

const addForm = (view: DestinationListView) => {
  if (view.frame.visitor.role !== "owner") return ""
  const chosen = view.sent?.currency ?? ""
  const currencyProblems = view.sent?.problems["currency"]
  const currencies = view.currencies.length === 0
    ? html`<p>No currency is enabled for this account yet: ask the platform's operator.</p>`
    : html`<label for="bank-currency">Currency</label><select id="bank-currency" name="currency" required${fieldState("bank-currency", currencyProblems)}>${
      view.currencies.map((currency) => html`<option value="${currency}"${currency === chosen ? html` selected` : ""}>${currency}</option>`)
    }</select>${fieldProblem("bank-currency", currencyProblems)}`
  return html`<section class="card" aria-labelledby="add-bank"><h2 id="add-bank">Add a bank account</h2>
<form method="post" action="${view.frame.home}/payout-destinations/add">${formTokenFields(view.frame)}
${textField(view, "account_holder", "Account holder", html`required maxlength="${String(MAX_ACCOUNT_HOLDER_LENGTH)}" autocomplete="organization"`)}
${textField(view, "iban", "IBAN", html`required maxlength="64" autocomplete="off" spellcheck="false" autocapitalize="characters"`)}
${textField(view, "bic", "BIC (optional)", html`maxlength="16" autocomplete="off" spellcheck="false" autocapitalize="characters"`)}
${currencies}
<p class="muted">The IBAN is kept sealed and never shown whole again.</p>
<button type="submit" class="primary">Add bank account</button>
</form></section>`
}

export const destinationListPage = (view: DestinationListView) =>
  framedPage(view.frame, "/payouts", "Bank accounts", html`${noticeBox(view.notice)}${problemBox(view.problem)}${payoutTabs(view.frame, "destinations")}<section class="card" aria-label="Bank accounts">${
    table(view)
  }</section>${addForm(view)}`)

/** The bank account named back once before it is deleted. */
export const deleteConfirmPage = (frame: PageFrame, destination: PayoutDestination) =>
  framedPage(frame, "/payouts", "Delete the bank account", html`<section class="card">
<p>Delete the ${destination.currency} bank account <span class="iban">${destination.ibanMasked}</span> held by <span class="wrap">${destination.accountHolder}</span>? No new payout can go to it; payouts already asked for are not changed.</p>
<form method="post" action="${frame.home}/payout-destinations/${encodeURIComponent(destination.id)}/delete">${formTokenFields(frame)}
<div class="actions"><button type="submit" class="primary">Delete bank account</button><a class="button" href="${linkTo(frame, "/payout-destinations")}">Cancel</a></div>
</form></section>`)

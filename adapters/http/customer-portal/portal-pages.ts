import type { Environment } from "../../../core/shared/environment.js"
import { type Instant, toSeconds } from "../../../core/shared/instant.js"
import type { SavedMethodFacts } from "../../../core/subscriptions/saved-methods.js"
import type { Invoice, Subscription } from "../../../core/subscriptions/subscription.js"
import { formatAmount } from "../checkout/amount-format.js"
import { page } from "../checkout/html.js"
import type { Locale } from "../checkout/locale.js"
import { type Html, html, raw } from "../pages/html.js"
import { FORM_TOKEN_FIELD } from "../dashboard/form-token.js"
import { invoiceDocumentLinks } from "./invoice-document-links.js"
import { paymentMethodLink, savedCardText } from "./payment-method-link.js"
import { type PortalMessages, portalMessagesFor } from "./portal-messages.js"

/** One subscription as the portal shows it: amounts already written exactly in the currency's digits. */
export interface SubscriptionView {
  readonly subscription: Subscription
  readonly invoices: ReadonlyArray<Invoice>
  /** The currency's minor digits. */
  readonly exponent: number
  /** Exact decimal text of an amount in the currency's digits ("19.99"). */
  readonly decimal: (invoiceOrSubscription: { readonly amount: Subscription["amount"] }) => string
  /** The invoice a "Pay" button pays (the unpaid one of the period due), when the subscription awaits payment. */
  readonly payable: Invoice | undefined
  /** "Cancel at period end" is offered (the subscription is active, not already ending, and the merchant allows it). */
  readonly cancellable: boolean
  /** The saved method renewals charge, when there is one (display facts only). */
  readonly savedMethod: SavedMethodFacts | undefined
}

export type PortalNotice = keyof PortalMessages["notices"]

export interface PortalView {
  readonly locale: Locale
  /** `?locale=xx` when the query chose the language, carried on every link and form; "" otherwise. */
  readonly carried: string
  /** The portal's absolute address (under the kit's public base). */
  readonly base: string
  readonly merchantName: string
  readonly environment: Environment
  readonly customerEmail: string
  readonly returnUrl: string
  readonly formToken: string
  readonly notice: PortalNotice | undefined
  readonly subscriptions: ReadonlyArray<SubscriptionView>
  /** One subscription's page (all its invoices) rather than the list. */
  readonly single: boolean
}

/** On the list, each subscription shows its newest invoices; its own page shows the twenty the store keeps at hand. */
const LISTED_INVOICES = 5

// The portal's few rules beyond the house style: a wider column for the invoice lists, facts as a
// two-column list, and status badges. Inline like checkout's: the page loads nothing.
const PORTAL_STYLE = raw(`<style>
main{max-width:40rem}
.sub{margin-bottom:1rem}
.sub h2{font-size:1.15rem;margin:0 0 .25rem}
.price{font-size:1.25rem;font-weight:700;margin:0 0 .5rem;overflow-wrap:normal}
dl.facts{display:grid;grid-template-columns:max-content 1fr;gap:.35rem 1rem;margin:.75rem 0}
dl.facts dt{color:#5b6475}
dl.facts dd{margin:0}
h3{font-size:1rem;margin:1rem 0 .25rem}
ul.invoices{list-style:none;padding:0;margin:0}
ul.invoices li{border-top:1px solid #e3e6ec;padding:.6rem 0}
.invoice-head{display:flex;flex-wrap:wrap;justify-content:space-between;gap:.25rem .75rem;font-weight:600}
.badge{display:inline-block;border-radius:999px;padding:.1rem .6rem;font-size:.85rem;font-weight:600;background:#eef0f4;color:#3b4252}
.badge.paid{background:#e3f4e8;color:#14532d}
.badge.open,.badge.unpaid{background:#fff4cc;color:#5c4400}
.notice{background:#e8f0fe;color:#1e3a8a;border:1px solid #b6cdfb;border-radius:8px;padding:.6rem .8rem;margin-bottom:1rem}
.explain{color:#5b6475;font-size:.9rem;margin:.75rem 0 0}
a.button{margin-top:1rem}
</style>`)

const dateFormats = new Map<Locale, Intl.DateTimeFormat>()

// UTC, as the checkout writes its times: without a script the page cannot know the customer's zone.
const dateFormat = (locale: Locale) => {
  let format = dateFormats.get(locale)
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale === "en" ? "en-GB" : locale, { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" })
    dateFormats.set(locale, format)
  }
  return format
}

const dateText = (instant: Instant, locale: Locale) => dateFormat(locale).format(new Date(toSeconds(instant) * 1000))

const dateOf = (instant: Instant, locale: Locale): Html =>
  html`<time datetime="${new Date(toSeconds(instant) * 1000).toISOString().replace(".000Z", "Z")}">${dateText(instant, locale)}</time>`

const money = (view: SubscriptionView, of: { readonly amount: Subscription["amount"] }, locale: Locale) =>
  formatAmount(view.decimal(of), view.subscription.currency, view.exponent, locale)

const statusText = (subscription: Subscription, locale: Locale, t: PortalMessages): string => {
  switch (subscription.status) {
    case "active":
      return subscription.cancelAtPeriodEnd && subscription.currentPeriodEnd !== null
        ? t.statusEnding(dateText(subscription.currentPeriodEnd, locale))
        : t.statusActive
    case "past_due":
      return t.statusPaymentDue
    case "pending":
      return subscription.nextBillingAt !== null && subscription.startsAt !== null
        ? t.statusStartsOn(dateText(subscription.startsAt, locale))
        : t.statusAwaitingFirst
    case "cancelled":
      return t.statusCancelled
  }
}

/** The invoice's name: its document number once invoices are numbered (issue 36 item 6), else its place in the subscription. */
const invoiceLabel = (invoice: Invoice & { readonly number?: string | null }, t: PortalMessages) =>
  invoice.number !== undefined && invoice.number !== null && invoice.number !== "" ? invoice.number : t.invoiceNumbered(invoice.sequence)

const csrf = (view: PortalView) => html`<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${view.formToken}">`

const invoiceItem = (view: PortalView, sub: SubscriptionView, invoice: Invoice, t: PortalMessages) => {
  const payable = sub.payable?.id === invoice.id
  const status = payable && invoice.status === "expired" ? "unpaid" : invoice.status
  const badge = status === "pending" ? "open" : status
  const period = invoice.periodStart !== null && invoice.periodEnd !== null
    ? html`<div class="muted">${dateOf(invoice.periodStart, view.locale)} – ${dateOf(invoice.periodEnd, view.locale)}</div>`
    : ""
  const documents = invoiceDocumentLinks(invoice, view.base, t).map((link) => html`<a class="button" href="${link.href}">${link.label}</a>`)
  const amount = money(sub, invoice, view.locale)
  const pay = payable
    ? html`<form method="post" action="${view.base}/invoices/${invoice.id}/pay${view.carried}">${csrf(view)}
<button type="submit" class="primary" data-testid="pay-invoice">${t.payInvoice(amount)}</button></form>`
    : ""
  return html`<li data-testid="invoice" data-status="${invoice.status}"><div class="invoice-head"><span>${invoiceLabel(invoice, t)}</span>
<span><bdi>${amount}</bdi> <span class="badge ${badge}">${t.invoiceStatus[status]}</span></span></div>${period}${documents}${pay}</li>`
}

const subscriptionCard = (view: PortalView, sub: SubscriptionView, t: PortalMessages) => {
  const { subscription } = sub
  const period = subscription.currentPeriodStart !== null && subscription.currentPeriodEnd !== null
    ? html`${dateOf(subscription.currentPeriodStart, view.locale)} – ${dateOf(subscription.currentPeriodEnd, view.locale)}`
    : t.none
  const nextBilling = subscription.nextBillingAt !== null && !subscription.cancelAtPeriodEnd && subscription.status !== "cancelled"
    ? dateOf(subscription.nextBillingAt, view.locale)
    : t.none
  const shown = view.single ? sub.invoices : sub.invoices.slice(0, LISTED_INVOICES)
  const invoices = shown.length === 0
    ? html`<p class="muted">${t.noInvoices}</p>`
    : html`<ul class="invoices">${shown.map((invoice) => invoiceItem(view, sub, invoice, t))}</ul>`
  const more = !view.single && sub.invoices.length > LISTED_INVOICES
    ? html`<a class="button" href="${view.base}/subscriptions/${subscription.id}${view.carried}">${t.viewSubscription}</a>`
    : ""
  const cancel = sub.cancellable && subscription.currentPeriodEnd !== null
    ? html`<form method="post" action="${view.base}/subscriptions/${subscription.id}/cancel${view.carried}">${csrf(view)}
<p class="explain">${t.cancelExplained(dateText(subscription.currentPeriodEnd, view.locale))}</p>
<button type="submit" class="secondary" data-testid="cancel-subscription">${t.cancelAtPeriodEnd}</button></form>`
    : ""
  const method = sub.savedMethod === undefined ? undefined : paymentMethodLink(subscription, view.base, view.carried, t)
  const updateMethod = method === undefined ? "" : html`<form method="post" action="${method.href}">${csrf(view)}
<button type="submit" class="secondary" data-testid="update-payment-method">${method.label}</button></form>`
  const card = sub.savedMethod === undefined || subscription.status === "cancelled"
    ? ""
    : html`
<dt>${t.paymentMethod}</dt><dd data-testid="payment-method">${savedCardText(sub.savedMethod, t)}</dd>`
  const headingId = `sub-${subscription.id}`
  return html`<section class="card sub" aria-labelledby="${headingId}" data-testid="subscription" data-status="${subscription.status}">
<h2 id="${headingId}">${subscription.description ?? t.subscription}</h2>
<p class="price"><bdi>${money(sub, subscription, view.locale)}</bdi> <span class="muted">${t.everyCycle[subscription.billingCycle]}</span></p>
<dl class="facts">
<dt>${t.status}</dt><dd data-testid="subscription-status">${statusText(subscription, view.locale, t)}</dd>
<dt>${t.currentPeriod}</dt><dd>${period}</dd>
<dt>${t.nextBilling}</dt><dd>${nextBilling}</dd>${card}
</dl>${updateMethod}${cancel}
<h3>${t.invoices}</h3>${invoices}${more}
</section>`
}

/** The portal: the customer's subscriptions with the merchant (or one of them), what they can do, and the way back. */
export const portalPage = (view: PortalView): Html => {
  const t = portalMessagesFor(view.locale)
  const banner = view.environment === "sandbox" ? html`<div class="banner" role="status">${t.testMode}</div>` : ""
  const notice = view.notice === undefined ? "" : html`<div class="notice" role="status" data-testid="notice">${t.notices[view.notice]}</div>`
  const list = view.subscriptions.length === 0
    ? html`<div class="card"><p>${t.noSubscriptions}</p></div>`
    : view.subscriptions.map((sub) => subscriptionCard(view, sub, t))
  const back = view.single ? html`<a class="button" href="${view.base}${view.carried}">${t.allSubscriptions}</a>` : ""
  return page(view.locale, `${t.title} · ${view.merchantName}`, html`${banner}
<p class="merchant">${view.merchantName}</p>
<h1>${t.title}</h1>
<p class="muted" data-testid="customer">${t.signedInAs(view.customerEmail)}</p>
${notice}${list}${back}
<a class="button" href="${view.returnUrl}" data-testid="return-to-merchant">${t.returnTo(view.merchantName)}</a>`, PORTAL_STYLE)
}

export type PortalNoticePage = "linkUsed" | "linkExpired" | "linkUnknown" | "sessionEnded" | "notFound" | "formExpired"

/** A page that explains where the customer stands, with the way on (back to the merchant, or to the portal). */
export const portalNoticePage = (locale: Locale, key: PortalNoticePage, link?: { readonly href: string; readonly label: string }): Html => {
  const t = portalMessagesFor(locale)
  const [title, message] = t[key]
  return page(locale, title, html`<div class="card"><h1>${title}</h1><p>${message}</p>${
    link === undefined ? "" : html`<p><a class="button" href="${link.href}">${link.label}</a></p>`
  }</div>`)
}

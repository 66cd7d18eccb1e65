import type { Gateway } from "../../../core/gateways/gateway.js"
import type { Payment } from "../../../core/payments/payment.js"
import { CHECKOUT_ENDED_ID } from "./embed-script.js"
import { type Instant, toSeconds } from "../../../core/shared/instant.js"
import { formatAmount } from "./amount-format.js"
import { type Html, html, raw } from "../pages/html.js"
import { page } from "./html.js"
import type { Locale } from "./locale.js"
import { type Messages, messagesFor } from "./messages.js"

export interface CheckoutView {
  readonly payment: Payment
  readonly merchantName: string
  /** The amount, exact, with the currency's own minor digits ("12.50"). */
  readonly displayAmount: string
  /** The currency's minor digits, for writing the amount in the customer's language. */
  readonly exponent: number
  /** Business time now, to say how long the link has left. */
  readonly now: Instant
  readonly gateways: ReadonlyArray<Gateway>
  readonly payAction: string
  readonly cancelAction: string
  readonly locale: Locale
  /** The gateway that declined the customer's last try, said above the choice so they know why they are back. */
  readonly declinedBy?: string | undefined
}

const sandboxBanner = (payment: Payment, t: Messages) =>
  payment.environment === "sandbox" ? html`<div class="banner" role="status">${t.testMode}</div>` : ""

const dateFormats = new Map<Locale, Intl.DateTimeFormat>()

// The page cannot know the customer's time zone without a script, so the time is given in UTC and the
// minutes left are said in words: the part a customer acts on reads right wherever they are.
const dateFormat = (locale: Locale) => {
  let format = dateFormats.get(locale)
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale === "en" ? "en-GB" : locale, { timeZone: "UTC", day: "numeric", month: "long", year: "numeric" })
    dateFormats.set(locale, format)
  }
  return format
}

const minutesLeft = (seconds: number, t: Messages) => (seconds < 60 ? t.lessThanAMinute : t.minutes(Math.floor(seconds / 60)))

/** "This payment link expires in 59 minutes, at 14:05 UTC on 3 May 2025." with a machine-readable time. */
export const expiryNotice = (expiresAt: Instant, now: Instant, locale: Locale = "en"): Html => {
  const t = messagesFor(locale)
  const seconds = toSeconds(expiresAt)
  const date = new Date(seconds * 1000)
  const iso = date.toISOString().replace(".000Z", "Z")
  const time = html`<time datetime="${iso}">${t.expiryInstant(iso.slice(11, 16), dateFormat(locale).format(date))}</time>`
  return html`<p class="expiry" data-testid="expiry">${t.expires(minutesLeft(seconds - toSeconds(now), t), time)}</p>`
}

// <bdi>: the number and its code keep their order inside a right-to-left page.
const heading = (view: Pick<CheckoutView, "payment" | "merchantName" | "displayAmount" | "exponent" | "now" | "locale">, t: Messages) => html`
<p class="merchant">${t.pay(view.merchantName)}</p>
<div class="amount" data-testid="amount"><bdi>${formatAmount(view.displayAmount, view.payment.currency, view.exponent, view.locale)}</bdi></div>
${view.payment.description ? html`<p data-testid="description">${view.payment.description}</p>` : ""}
${expiryNotice(view.payment.expiresAt, view.now, view.locale)}`

/** The choice of payment method, each a plain form with one button so the page works without JavaScript. */
export const checkoutPage = (view: CheckoutView): Html => {
  const t = messagesFor(view.locale)
  const methods = view.gateways.length === 0
    ? html`<p class="muted">${t.noMethod}</p>`
    : html`<ul class="methods">${
      view.gateways.map((gateway) => html`<li><form method="post" action="${view.payAction}">
<input type="hidden" name="gateway_id" value="${gateway.id}">
<button type="submit" class="method" data-testid="gateway-${gateway.code}">${gateway.name}</button>
</form></li>`)
    }</ul>`
  const declined = view.declinedBy === undefined ? "" : html`<div class="problem" role="alert" data-testid="declined">${t.declined(view.declinedBy)}</div>`
  return page(view.locale, t.pay(view.merchantName), html`${sandboxBanner(view.payment, t)}<div class="card">${heading(view, t)}
<h1>${t.chooseHowToPay}</h1>${declined}${methods}
<form method="post" action="${view.cancelAction}"><button type="submit" class="link" data-testid="cancel-checkout">${t.cancelAndReturn(view.merchantName)}</button></form>
</div>`)
}

/**
 * A gateway plugin's own form, inside the kit's page. The fragment is trusted plugin output (the one
 * `raw` of a value: a plugin is trusted code, as the kit's own is, and writes its form itself); it may use
 * the page's button classes (`primary`, `secondary`) and `trx` for identifiers. The way out is back to
 * the choice of methods (the plugin's form has its own cancel, if any).
 */
export const gatewayPage = (view: Omit<CheckoutView, "gateways" | "payAction">, gateway: Gateway, fragment: string, backHref: string): Html => {
  const t = messagesFor(view.locale)
  return page(view.locale, t.pay(view.merchantName), html`${sandboxBanner(view.payment, t)}<div class="card">${heading(view, t)}
<h1>${t.payWith(gateway.name)}</h1>${raw(fragment)}
<a class="back" href="${backHref}" data-testid="choose-another">${t.chooseAnother}</a></div>`)
}

/** The notices: the pages that explain where the customer stands, by what they say. */
export type NoticeKey =
  | "notFound" | "finished" | "invoiceCancelled" | "expired" | "merchantUnavailable" | "tooLarge" | "notUnderstood"
  | "chooseMethod" | "methodUnavailable" | "processing" | "beingChecked" | "notConfirmed"

/** The way on from a notice: back to the merchant, or to the choice of methods. */
export interface NoticeLink {
  readonly href: string
  readonly label: "returnToMerchant" | "chooseAnother"
}

/** A checkout notice: a page that explains where the customer stands and offers the way back. */
export const checkoutNotice = (locale: Locale, key: NoticeKey, link?: NoticeLink): Html => {
  const t = messagesFor(locale)
  const [title, message] = t[key]
  return page(locale, title, html`<div class="card"><h1>${title}</h1><p>${message}</p>${
    link === undefined ? "" : html`<p><a class="button" href="${link.href}">${t[link.label]}</a></p>`
  }</div>`)
}

/**
 * The end of a checkout inside a merchant's page (an embed flow): instead of sending the frame on to
 * the merchant's return address, it says how the payment ended and the kit's script tells the parent
 * page (`{ type: "merchant-payments.checkout", status, trx_id }`), posted to the merchant's listed
 * origins only. Without the script, the link still takes the customer on, in the whole window.
 */
export const framedEndPage = (input: {
  readonly locale: Locale
  readonly payment: Payment
  readonly returnHref: string | undefined
  readonly framers: ReadonlyArray<string>
  readonly scriptSrc: string
}): Html => {
  const t = messagesFor(input.locale)
  const [title, message] = input.payment.status === "success" ? t.paidInFrame : t.endedInFrame
  const link = input.returnHref === undefined
    ? ""
    : html`<p><a class="button" href="${input.returnHref}" target="_top" data-testid="return-to-merchant">${t.returnToMerchant}</a></p>`
  return page(input.locale, title, html`<div class="card" id="${CHECKOUT_ENDED_ID}" data-testid="checkout-ended" data-status="${input.payment.status}" data-trx-id="${
    input.payment.trxId}" data-parent-origins="${input.framers.join(" ")}"><h1>${title}</h1><p>${message}</p>${link}</div>`,
    html`\n<script src="${input.scriptSrc}" defer></script>`)
}

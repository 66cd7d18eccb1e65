import type { Gateway } from "../../../core/payments/gateway.js"
import type { Payment } from "../../../core/payments/payment.js"
import { type Instant, toSeconds } from "../../../core/shared/instant.js"
import { escapeHtml, page } from "./html.js"

export interface CheckoutView {
  readonly payment: Payment
  readonly merchantName: string
  /** The amount for display, in the currency's own minor units ("12.50"). */
  readonly displayAmount: string
  /** Business time now, to say how long the link has left. */
  readonly now: Instant
  readonly gateways: ReadonlyArray<Gateway>
  readonly payAction: string
  readonly cancelAction: string
}

const sandboxBanner = (payment: Payment) =>
  payment.environment === "sandbox" ? `<div class="banner" role="status">Test mode: sandbox payment, no real money moves.</div>` : ""

// The page cannot know the customer's time zone without a script, so the time is given in UTC and the
// minutes left are said in words: the part a customer acts on reads right wherever they are.
const EXPIRY_FORMAT = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC", day: "numeric", month: "long", year: "numeric", hour: "2-digit", minute: "2-digit", hourCycle: "h23"
})

const minutesLeft = (seconds: number) => {
  if (seconds < 60) return "in less than a minute"
  const minutes = Math.floor(seconds / 60)
  return minutes === 1 ? "in 1 minute" : `in ${minutes} minutes`
}

/** "This payment link expires in 59 minutes, at 14:05 UTC on 3 May 2025." with a machine-readable time. */
export const expiryNotice = (expiresAt: Instant, now: Instant): string => {
  const seconds = toSeconds(expiresAt)
  const date = new Date(seconds * 1000)
  const parts = Object.fromEntries(EXPIRY_FORMAT.formatToParts(date).map((part) => [part.type, part.value]))
  const human = `${parts["hour"]}:${parts["minute"]} UTC on ${parts["day"]} ${parts["month"]} ${parts["year"]}`
  return `<p class="expiry" data-testid="expiry">This payment link expires ${minutesLeft(seconds - toSeconds(now))}, at ` +
    `<time datetime="${date.toISOString().replace(".000Z", "Z")}">${human}</time>.</p>`
}

const heading = (view: Pick<CheckoutView, "payment" | "merchantName" | "displayAmount" | "now">) => `
<p class="merchant">Pay ${escapeHtml(view.merchantName)}</p>
<div class="amount" data-testid="amount">${escapeHtml(view.displayAmount)} ${escapeHtml(view.payment.currency)}</div>
${view.payment.description ? `<p data-testid="description">${escapeHtml(view.payment.description)}</p>` : ""}
${expiryNotice(view.payment.expiresAt, view.now)}`

/** The choice of payment method, each a plain form with one button so the page works without JavaScript. */
export const checkoutPage = (view: CheckoutView): string => {
  const methods = view.gateways.length === 0
    ? `<p class="muted">No payment method is available for this payment.</p>`
    : `<ul class="methods">${
      view.gateways.map((gateway) => `<li><form method="post" action="${escapeHtml(view.payAction)}">
<input type="hidden" name="gateway_id" value="${gateway.id}">
<button type="submit" class="method" data-testid="gateway-${escapeHtml(gateway.code)}">${escapeHtml(gateway.name)}</button>
</form></li>`).join("")
    }</ul>`
  return page(`Pay ${view.merchantName}`, `${sandboxBanner(view.payment)}<div class="card">${heading(view)}
<h1>Choose how to pay</h1>${methods}
<form method="post" action="${escapeHtml(view.cancelAction)}"><button type="submit" class="link" data-testid="cancel-checkout">Cancel and return to ${escapeHtml(view.merchantName)}</button></form>
</div>`)
}

/**
 * A gateway plugin's own form, inside the kit's page. The fragment is trusted plugin output; it may use
 * the page's button classes (`primary`, `secondary`) and `trx` for identifiers. The way out is back to
 * the choice of methods (the plugin's form has its own cancel, if any).
 */
export const gatewayPage = (view: Omit<CheckoutView, "gateways" | "payAction">, gateway: Gateway, fragment: string, backHref: string): string =>
  page(`Pay ${view.merchantName}`, `${sandboxBanner(view.payment)}<div class="card">${heading(view)}
<h1>Pay with ${escapeHtml(gateway.name)}</h1>${fragment}
<a class="back" href="${escapeHtml(backHref)}" data-testid="choose-another">Choose another payment method</a></div>`)

/** A page that explains where the customer stands and offers the way back. */
export const messagePage = (title: string, message: string, link?: { readonly href: string; readonly label: string }): string =>
  page(title, `<div class="card"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${
    link === undefined ? "" : `<p><a class="button" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`
  }</div>`)

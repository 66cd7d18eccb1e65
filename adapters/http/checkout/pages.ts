import type { Gateway } from "../../../core/payments/gateway.js"
import type { Payment } from "../../../core/payments/payment.js"
import { escapeHtml, page } from "./html.js"

export interface CheckoutView {
  readonly payment: Payment
  readonly merchantName: string
  /** The amount for display, in the currency's own minor units ("12.50"). */
  readonly displayAmount: string
  readonly gateways: ReadonlyArray<Gateway>
  readonly payAction: string
  readonly cancelAction: string
}

const sandboxBanner = (payment: Payment) =>
  payment.environment === "sandbox" ? `<div class="banner" role="status">Test mode: sandbox payment, no real money moves.</div>` : ""

const heading = (view: Pick<CheckoutView, "payment" | "merchantName" | "displayAmount">) => `
<p class="muted">Pay ${escapeHtml(view.merchantName)}</p>
<div class="amount" data-testid="amount">${escapeHtml(view.displayAmount)} ${escapeHtml(view.payment.currency)}</div>
${view.payment.description ? `<p data-testid="description">${escapeHtml(view.payment.description)}</p>` : ""}`

/** The choice of payment method, each a plain form so the page works without JavaScript. */
export const checkoutPage = (view: CheckoutView): string => {
  const methods = view.gateways.length === 0
    ? `<p class="muted">No payment method is available for this payment.</p>`
    : `<ul class="methods">${
      view.gateways.map((gateway) => `<li><form method="post" action="${escapeHtml(view.payAction)}">
<input type="hidden" name="gateway_id" value="${gateway.id}">
<button type="submit" data-testid="gateway-${escapeHtml(gateway.code)}">${escapeHtml(gateway.name)}</button>
</form></li>`).join("")
    }</ul>`
  return page(`Pay ${view.merchantName}`, `${sandboxBanner(view.payment)}<div class="card">${heading(view)}${methods}
<form method="post" action="${escapeHtml(view.cancelAction)}"><button type="submit" class="link" data-testid="cancel-checkout">Cancel and return to ${escapeHtml(view.merchantName)}</button></form>
</div>`)
}

/**
 * A gateway plugin's own form, inside the kit's page. The fragment is trusted plugin output. The
 * way out is back to the choice of methods (the plugin's form has its own cancel, if any).
 */
export const gatewayPage = (view: Omit<CheckoutView, "gateways" | "payAction">, gateway: Gateway, fragment: string, backHref: string): string =>
  page(`Pay ${view.merchantName}`, `${sandboxBanner(view.payment)}<div class="card">${heading(view)}
<p class="muted">${escapeHtml(gateway.name)}</p>${fragment}
<a class="back" href="${escapeHtml(backHref)}" data-testid="choose-another">Choose another payment method</a></div>`)

/** A page that explains where the customer stands and offers the way back. */
export const messagePage = (title: string, message: string, link?: { readonly href: string; readonly label: string }): string =>
  page(title, `<div class="card"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p>${
    link === undefined ? "" : `<p><a class="button" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>`
  }</div>`)

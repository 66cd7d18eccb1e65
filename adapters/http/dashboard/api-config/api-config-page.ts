import { MAX_FRAME_ANCESTORS } from "../../../../core/merchants/checkout-frames.js"
import type { CheckoutSettings } from "../../../../core/merchants/checkout-settings.js"
import { html } from "../../pages/html.js"
import { noticeBox, problemBox } from "../page-parts.js"
import { framedPage, formTokenFields, type PageFrame } from "../layout.js"

export interface ApiConfigView {
  readonly frame: PageFrame
  readonly settings: CheckoutSettings
  readonly notice: string | undefined
  readonly problem: string | undefined
  /** The origins allowed to frame the merchant's checkout, as kept. */
  readonly frameAncestors: ReadonlyArray<string>
  /** What the visitor sent when the list was refused, to correct rather than retype. */
  readonly frameAncestorsSent?: string | undefined
}

/** Ticked means offered: every available gateway while no selection is in force, else the selection. */
const offered = (settings: CheckoutSettings, gateway: CheckoutSettings["gateways"][number]) =>
  settings.restricted ? gateway.selected : gateway.available

const wallet = (state: CheckoutSettings["currencies"][number]["wallet"]) =>
  state === "active" ? "" : state === "inactive" ? " (its wallet is inactive: ask the operator)" : " (no wallet yet: ask the operator)"

/** The currencies worth a box: the ones on, and the ones with a wallet here; any other is added by code. */
const currencyBoxes = (view: ApiConfigView, owner: boolean) => {
  const shown = view.settings.currencies.filter((currency) => currency.enabled || currency.wallet !== "none")
  const boxes = shown.map((currency) =>
    html`<label class="check"><input type="checkbox" name="currencies" value="${currency.code}"${currency.enabled ? html` checked` : ""}${owner ? "" : html` disabled`}>${currency.code}${wallet(currency.wallet)}</label>`)
  const add = owner
    ? html`<label for="add-currencies">Add currencies (codes, separated by spaces)</label><input id="add-currencies" name="add_currencies" maxlength="200" autocomplete="off">`
    : ""
  return html`<fieldset><legend>Currencies checkout takes</legend>${boxes.length === 0 ? html`<p>None yet.</p>` : boxes}${add}</fieldset>`
}

const gatewayBoxes = (view: ApiConfigView, owner: boolean) => {
  const currencies = [...new Set(view.settings.gateways.map((gateway) => gateway.currency))]
  if (currencies.length === 0) return html`<p>The operator has not set up a gateway yet.</p>`
  return currencies.map((currency) => html`<fieldset><legend>Gateways offered for ${currency}</legend>${
    view.settings.gateways.filter((gateway) => gateway.currency === currency).map((gateway) =>
      html`<label class="check"><input type="checkbox" name="gateway_ids" value="${gateway.id}"${offered(view.settings, gateway) ? html` checked` : ""}${owner ? "" : html` disabled`}>${
        gateway.name}${gateway.available ? "" : " (not available in this environment)"}</label>`)
  }</fieldset>`)
}

/** The sites that may show checkout inside their own page: a form of its own, so saving one list never resends the other. */
const frameForm = (view: ApiConfigView, owner: boolean) => {
  const heading = html`<h2 id="frames-heading">Sites that may show checkout in their page</h2>
<p class="muted">Your store's own https origins (such as https://shop.example), one per line, at most ${MAX_FRAME_ANCESTORS}. Checkout opened inside one of their pages tells that page how the payment ended; no other site can frame it.</p>`
  if (!owner) {
    const list = view.frameAncestors.length === 0 ? html`<p>None: no site may frame checkout.</p>` : html`<ul>${view.frameAncestors.map((origin) => html`<li>${origin}</li>`)}</ul>`
    return html`<section class="card" aria-labelledby="frames-heading">${heading}${list}</section>`
  }
  const text = view.frameAncestorsSent ?? view.frameAncestors.join("\n")
  return html`<form class="card" method="post" action="${view.frame.home}/api-config/frame-ancestors" aria-labelledby="frames-heading">${formTokenFields(view.frame)}${heading}
<label for="frame-ancestors">Allowed origins</label><textarea id="frame-ancestors" name="checkout_frame_ancestors" rows="4" maxlength="4000" autocomplete="off" spellcheck="false">${text}</textarea>
<button type="submit" class="primary">Save allowed sites</button></form>`
}

/** Which currencies the merchant takes and which gateways hosted checkout offers (spec 1.6, 4.1 step 5). */
export const apiConfigPage = (view: ApiConfigView) => {
  const owner = view.frame.visitor.role === "owner"
  const fields = html`${currencyBoxes(view, owner)}${gatewayBoxes(view, owner)}`
  const body = owner
    ? html`<form class="card" method="post" action="${view.frame.home}/api-config">${formTokenFields(view.frame)}${fields}
<p class="muted">Ticking every gateway offers every gateway, including ones the operator adds later.</p>
<button type="submit" class="primary">Save API Config</button></form>`
    : html`<div class="card">${fields}</div>`
  const frames = frameForm(view, owner)
  return framedPage(view.frame, "/api-config", "API Config", html`${noticeBox(view.notice)}${problemBox(view.problem)}<p>What hosted checkout offers your customers. It applies to the next checkout page opened, in both environments.</p>${body}${frames}`)
}

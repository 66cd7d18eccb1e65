import type { Merchant } from "../../../../core/merchants/merchant.js"
import type { IpnJsonStyle, IpnSignatureFormat } from "../../../../core/webhooks/ipn-compatibility.js"
import { html } from "../../pages/html.js"
import { formTokenFields, type PageFrame } from "../layout.js"

/**
 * The Developers page's card for the merchant's IPN compatibility settings: how its webhooks'
 * X-Signature and body are spelled, for receivers written for other platforms. Owners get the form,
 * viewers the values. The choices are those the admin API takes, each with the receivers that need it.
 */

export const SIGNATURE_FORMATS: ReadonlyArray<{ readonly value: IpnSignatureFormat; readonly label: string }> = [
  { value: "hex", label: "Bare hex (the API's own; receivers that accept it with or without sha256=)" },
  { value: "sha256=hex", label: "sha256= and the hex (plugins that compare X-Signature with \"sha256=\" + hex only)" }
]

export const JSON_STYLES: ReadonlyArray<{ readonly value: IpnJsonStyle; readonly label: string }> = [
  { value: "compact", label: "Compact JSON (the API's own; receivers that check the bytes they received)" },
  { value: "php", label: "As PHP's json_encode writes it: escaped / and \\uXXXX (PHP receivers that re-encode the parsed body before checking it)" }
]

/** The form's route, beside the page. */
export const WEBHOOK_COMPATIBILITY_PATH = "/developers/webhook-compatibility"

const choices = <V extends string>(name: string, legend: string, options: ReadonlyArray<{ readonly value: V; readonly label: string }>, current: V) =>
  html`<fieldset><legend>${legend}</legend>${options.map((option) =>
    html`<label class="check"><input type="radio" name="${name}" value="${option.value}"${option.value === current ? html` checked` : ""}>${option.label}</label>`)}</fieldset>`

const labelOf = <V extends string>(options: ReadonlyArray<{ readonly value: V; readonly label: string }>, value: V) =>
  options.find((option) => option.value === value)?.label ?? value

export const webhookCompatibilityCard = (frame: PageFrame, merchant: Merchant) => {
  const intro = html`<p>For receivers written for other platforms. Both environments' webhooks follow these settings; the defaults are the API's own bytes, so change them only for a receiver that needs it. The signature always covers the exact bytes sent.</p>`
  const body = frame.visitor.role === "owner"
    ? html`<form method="post" action="${frame.home}${WEBHOOK_COMPATIBILITY_PATH}">${formTokenFields(frame)}
${choices("ipn_signature_format", "X-Signature", SIGNATURE_FORMATS, merchant.ipnSignatureFormat)}
${choices("ipn_json_style", "Body", JSON_STYLES, merchant.ipnJsonStyle)}
<button type="submit" class="primary">Save webhook compatibility</button></form>`
    : html`<table><tbody><tr><th scope="row">X-Signature</th><td>${labelOf(SIGNATURE_FORMATS, merchant.ipnSignatureFormat)}</td></tr>
<tr><th scope="row">Body</th><td>${labelOf(JSON_STYLES, merchant.ipnJsonStyle)}</td></tr></tbody></table>`
  return html`<section class="card" aria-labelledby="compatibility"><h2 id="compatibility">Webhook compatibility</h2>${intro}${body}</section>`
}

import type { StoredCredentials } from "../../../../core/merchants/credentials.js"
import type { Environment } from "../../../../core/shared/environment.js"
import type { Instant } from "../../../../core/shared/instant.js"
import { html } from "../../pages/html.js"
import { noticeBox, problemBox } from "../page-parts.js"
import { framedPage, formTokenFields, type PageFrame } from "../layout.js"
import { timeText } from "../page-text.js"
import { webhookCompatibilityCard } from "./webhook-compatibility-form.js"

/** How long a rolled set may keep working beside the new one, as the form offers it. */
export const ROLL_OVERLAPS = [
  { seconds: 0, label: "No overlap: the old credentials stop now" },
  { seconds: 3_600, label: "1 hour" },
  { seconds: 86_400, label: "24 hours" }
] as const

export interface DevelopersView {
  readonly frame: PageFrame
  /** The environment's sets valid now: the current one first, then replaced ones in their overlap. */
  readonly live: ReadonlyArray<StoredCredentials>
  readonly notice: string | undefined
  /** Why a form of the page was refused (422). */
  readonly problem?: string
}

const environmentName = (environment: Environment) => (environment === "sandbox" ? "sandbox" : "production")

const currentSet = (view: DevelopersView) => {
  const current = view.live[0]
  if (current === undefined || current.retiresAt !== null) {
    return html`<p>No credentials are issued for ${environmentName(view.frame.environment)} yet.${view.frame.visitor.role === "owner" ? " Issue them below." : ""}</p>`
  }
  return html`<table><tbody>
<tr><th scope="row">Merchant key (X-Merchant-Key)</th><td><code class="secret" data-copy="Merchant key">${current.merchantKey}</code></td></tr>
<tr><th scope="row">API key (X-API-Key)</th><td>Shown once, when issued. Roll to get a new one.</td></tr>
<tr><th scope="row">Client secret</th><td>Shown once, when issued. It signs your requests (X-Signature).</td></tr>
<tr><th scope="row">Webhook secret</th><td>Shown once, when issued. It signs the webhooks you receive.</td></tr>
<tr><th scope="row">Issued</th><td>${timeText(current.createdAt)}</td></tr>
</tbody></table>`
}

const overlaps = (view: DevelopersView) => {
  const replaced = view.live.filter((set) => set.retiresAt !== null)
  if (replaced.length === 0) return ""
  const items = replaced.map((set) => html`<li>Merchant key <code class="trx">${set.merchantKey}</code> keeps working until ${timeText(set.retiresAt as Instant)}.</li>`)
  const end = view.frame.visitor.role === "owner"
    ? html`<form method="post" action="${view.frame.home}/developers/end-overlap">${formTokenFields(view.frame)}<button type="submit" class="secondary">End the overlap now</button></form>`
    : ""
  return html`<div class="problem" role="status"><p>Replaced credentials still in their overlap:</p><ul>${items}</ul>${end}</div>`
}

const rollForm = (view: DevelopersView) =>
  view.frame.visitor.role !== "owner" ? "" : html`<section class="card" aria-labelledby="roll"><h2 id="roll">Roll credentials</h2>
<p>A new merchant key, API key, client secret and webhook secret for ${environmentName(view.frame.environment)}, shown once on the next page. Use an overlap to move your servers over without a failed request; webhooks are signed with both secrets meanwhile.</p>
<form method="post" action="${view.frame.home}/developers/roll">${formTokenFields(view.frame)}
<fieldset><legend>Overlap</legend>${ROLL_OVERLAPS.map((overlap, index) =>
    html`<label class="check"><input type="radio" name="overlap_seconds" value="${overlap.seconds}"${index === 0 ? html` checked` : ""}>${overlap.label}</label>`)}</fieldset>
<button type="submit" class="primary">Roll ${environmentName(view.frame.environment)} credentials</button>
</form></section>`

const signing = (view: DevelopersView) => html`<section class="card" aria-labelledby="signing"><h2 id="signing">Signing</h2>
<p><strong>Your requests</strong>: X-Signature is <code>sha256=</code> and the hex HMAC-SHA256, keyed with the client secret, of <code>{X-Timestamp}.{METHOD}.{path}.{raw body}</code>.</p>
<p><strong>Webhooks you receive</strong>: X-Signature is the hex HMAC-SHA256 of the raw body, keyed with the webhook secret (refund events: the client secret); the Standard Webhooks headers (webhook-id, webhook-timestamp, webhook-signature) come beside it, and the webhook secret goes to a Standard Webhooks library as it is. Verify before acting and compare in constant time.</p>
<p><a href="${view.frame.home.replace(/\/dashboard$/, "")}/docs">API reference</a></p>
</section>`

export const developersPage = (view: DevelopersView) =>
  framedPage(view.frame, "/developers", "Developers", html`${noticeBox(view.notice)}${problemBox(view.problem)}${overlaps(view)}
<section class="card" aria-labelledby="keys"><h2 id="keys">Credentials (${environmentName(view.frame.environment)})</h2>${currentSet(view)}</section>${rollForm(view)}${signing(view)}${
    webhookCompatibilityCard(view.frame, view.frame.visitor.merchant)
  }`)

export interface IssuedView {
  readonly frame: PageFrame
  readonly merchantKey: string
  readonly apiKey: string
  readonly clientSecret: string
  readonly webhookSecret: string
  readonly previousValidUntil: Instant | null
}

const secretRow = (label: string, id: string, value: string) =>
  html`<tr><th scope="row">${label}</th><td><code class="secret" id="${id}" data-copy="${label}">${value}</code></td></tr>`

/** The new set, shown this once: the page is the answer to the roll and is never stored or cached. */
export const issuedPage = (view: IssuedView) =>
  framedPage(view.frame, "/developers", "New credentials", html`${problemBox("Copy these now: the API key and the secrets are not shown again.")}
<section class="card"><table><tbody>${secretRow("Merchant key", "merchant-key", view.merchantKey)}${secretRow("API key", "api-key", view.apiKey)}${
    secretRow("Client secret", "client-secret", view.clientSecret)
  }${secretRow("Webhook secret", "webhook-secret", view.webhookSecret)}</tbody></table>
<p>${view.previousValidUntil === null ? "The old credentials stopped working." : html`The old credentials keep working until ${timeText(view.previousValidUntil)}.`}</p>
<p><a class="button" href="${`${view.frame.home}/developers?environment=${view.frame.environment}`}">Done</a></p></section>`)

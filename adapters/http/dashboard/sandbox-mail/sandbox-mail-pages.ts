import type { ShownMail } from "../../../../core/mail/sandbox-mail.js"
import { html } from "../../pages/html.js"
import { framedPage, linkTo, type PageFrame } from "../layout.js"
import { factRow } from "../page-parts.js"
import { statusLabel, timeText } from "../page-text.js"

export const mailLink = (frame: PageFrame, id: string) => linkTo(frame, `/sandbox-mail/${encodeURIComponent(id)}`)
export const mailHtmlLink = (frame: PageFrame, id: string) => linkTo(frame, `/sandbox-mail/${encodeURIComponent(id)}/html`)

const kindText = (kind: string) => kind.replace(/_/g, " ")

const mailRow = (frame: PageFrame, shown: ShownMail) =>
  html`<tr><td data-label="Created">${timeText(shown.mail.createdAt)}</td><td data-label="Subject"><a href="${mailLink(frame, shown.mail.id)}"><span class="wrap">${shown.rendered.subject}</span></a></td><td data-label="To"><span class="wrap">${shown.mail.to}</span></td><td data-label="Kind">${
    kindText(shown.mail.kind)
  }</td><td data-label="Status">${statusLabel(shown.mail.status)}</td></tr>`

const OUTSIDE_SANDBOX = "Production mail is sent to the customers' inboxes through the deployment's SMTP server (SMTP_URL), never kept here."

/** The sandbox's mail, newest first: what would have reached customers, kept instead of sent. */
export const sandboxMailListPage = (frame: PageFrame, mails: ReadonlyArray<ShownMail>) => {
  if (frame.environment !== "sandbox") {
    return framedPage(frame, "/sandbox-mail", "Sandbox mail", html`<section class="card"><p>${OUTSIDE_SANDBOX}</p></section>`)
  }
  const rows = mails.length === 0
    ? html`<div class="empty"><p><strong>No mail yet.</strong></p><p>Invoices, receipts and reminders for your sandbox subscriptions show here instead of reaching anyone.</p></div>`
    : html`<table class="cards"><caption class="muted">The newest 50, newest first; times in UTC</caption><thead><tr><th scope="col">Created</th><th scope="col">Subject</th><th scope="col">To</th><th scope="col">Kind</th><th scope="col">Status</th></tr></thead><tbody>${
      mails.map((shown) => mailRow(frame, shown))
    }</tbody></table>`
  return framedPage(frame, "/sandbox-mail", "Sandbox mail", html`<section class="card" aria-labelledby="mails"><h2 id="mails">Mail</h2><p class="muted">Mail about sandbox objects is kept here and sent to no customer.</p>${rows}</section>`)
}

/** One mail: its facts, its plain-text part, and its HTML part as a mail client would show it. */
export const sandboxMailPage = (frame: PageFrame, shown: ShownMail) => {
  const { mail, rendered } = shown
  const facts = html`<table class="facts"><tbody>${[
    factRow("To", mail.to),
    factRow("Subject", rendered.subject),
    factRow("Kind", kindText(mail.kind)),
    factRow("Language", mail.locale ?? "en"),
    factRow("Created", timeText(mail.createdAt)),
    factRow("Status", statusLabel(mail.status)),
    ...(mail.sentAt === null ? [] : [factRow("Delivered to the sandbox mail server", timeText(mail.sentAt))]),
    ...(mail.lastError === null ? [] : [factRow("Last error", mail.lastError)])
  ]}</tbody></table>`
  return framedPage(frame, "/sandbox-mail", rendered.subject, html`<p><a href="${linkTo(frame, "/sandbox-mail")}">All sandbox mail</a></p>
<section class="card" aria-labelledby="facts"><h2 id="facts">Message</h2>${facts}</section>
<section class="card" aria-labelledby="text-part"><h2 id="text-part">Plain text</h2><pre class="payload">${rendered.text}</pre></section>
<section class="card" aria-labelledby="html-part"><h2 id="html-part">HTML</h2><iframe class="mail-html" title="The HTML part of the mail" sandbox="" src="${mailHtmlLink(frame, mail.id)}"></iframe><p><a href="${
    mailHtmlLink(frame, mail.id)
  }">Open the HTML part on its own</a></p></section>`)
}

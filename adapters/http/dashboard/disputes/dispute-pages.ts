import { type Dispute, isOpen } from "../../../../core/disputes/dispute.js"
import { MAX_EVIDENCE_FILE_BYTES, MAX_EVIDENCE_FILES, MAX_EVIDENCE_TEXT } from "../../../../core/disputes/dispute-evidence.js"
import { type Instant, secondsBetween } from "../../../../core/shared/instant.js"
import { html, type Html } from "../../pages/html.js"
import { framedPage, formTokenFields, linkTo, type PageFrame } from "../layout.js"
import { cursorPager, factRow, fieldProblem, fieldState, noticeBox, problemBox } from "../page-parts.js"
import { type MoneyText, statusLabel, timeText } from "../page-text.js"

/** Evidence due within this long is flagged as soon: a merchant needs days, not hours, to gather it. */
const SOON_SECONDS = 3 * 86_400

const disputeLink = (frame: PageFrame, id: string) => linkTo(frame, `/disputes/${encodeURIComponent(id)}`)
const paymentLink = (frame: PageFrame, trxId: string) => linkTo(frame, `/payments/${encodeURIComponent(trxId)}`)

/**
 * The evidence deadline, flagged in words (the colour only repeats them) while the dispute still
 * waits for evidence: overdue once passed, soon within three days.
 */
export const dueText = (dispute: Dispute, at: Instant): Html => {
  const when = timeText(dispute.evidenceDueBy)
  if (dispute.status !== "needs_response") return when
  const left = secondsBetween(at, dispute.evidenceDueBy)
  if (left <= 0) return html`<span class="due overdue">${when} <strong>overdue</strong></span>`
  if (left <= SOON_SECONDS) {
    const hours = Math.floor(left / 3600)
    const remaining = hours < 48 ? (hours < 1 ? "under an hour left" : `${hours} ${hours === 1 ? "hour" : "hours"} left`) : `${Math.floor(hours / 24)} days left`
    return html`<span class="due soon">${when} <strong>${remaining}</strong></span>`
  }
  return when
}

export interface DisputeListView {
  readonly frame: PageFrame
  readonly money: MoneyText
  readonly at: Instant
  readonly disputes: ReadonlyArray<Dispute>
  readonly next: string | undefined
  readonly first: string | undefined
  readonly problem: string | undefined
}

const disputeRow = (view: DisputeListView, dispute: Dispute) =>
  html`<tr><td data-label="Opened">${timeText(dispute.createdAt)}</td><td data-label="Dispute"><a href="${disputeLink(view.frame, dispute.id)}"><code class="trx">${dispute.id}</code></a></td><td data-label="Payment"><a href="${
    paymentLink(view.frame, dispute.paymentTrxId)
  }"><code class="trx">${dispute.paymentTrxId}</code></a></td><td data-label="Amount" class="amount">${view.money(dispute.amount, dispute.currency)}</td><td data-label="Fee" class="amount">${
    view.money(dispute.fee, dispute.currency)
  }</td><td data-label="Reason"><span class="wrap">${dispute.reason}</span></td><td data-label="Status">${statusLabel(dispute.status)}</td><td data-label="Evidence due">${dueText(dispute, view.at)}</td></tr>`

export const disputeListPage = (view: DisputeListView) => {
  const rows = view.disputes.length === 0
    ? view.first === undefined
      ? html`<div class="empty"><p><strong>No disputes.</strong></p><p>When a customer challenges a payment with their card issuer, it shows here with the date your evidence is due.</p></div>`
      : html`<p>No more disputes.</p>`
    : html`<table class="cards"><caption class="muted">Newest first; times in UTC</caption><thead><tr><th scope="col">Opened</th><th scope="col">Dispute</th><th scope="col">Payment</th><th scope="col" class="amount">Amount</th><th scope="col" class="amount">Fee</th><th scope="col">Reason</th><th scope="col">Status</th><th scope="col">Evidence due</th></tr></thead><tbody>${
      view.disputes.map((dispute) => disputeRow(view, dispute))
    }</tbody></table>`
  return framedPage(view.frame, "/disputes", "Disputes", html`${problemBox(view.problem)}<section class="card" aria-labelledby="disputes"><h2 id="disputes">Disputes</h2><p class="muted">A disputed amount and its fee left your balance when the dispute opened; a won dispute brings the amount back, the fee stays spent.</p>${rows}${
    cursorPager(view.first, view.next)
  }</section>`)
}

/** A refused evidence form, kept to be corrected. */
export interface EvidenceFormState {
  readonly text: string
  readonly problems: Readonly<Record<string, ReadonlyArray<string>>>
  /** A refusal that names no field (the dispute moved on, the gateway said no). */
  readonly problem: string | undefined
}

export interface DisputeDetailView {
  readonly frame: PageFrame
  readonly money: MoneyText
  readonly at: Instant
  readonly dispute: Dispute
  readonly sent: EvidenceFormState | undefined
  readonly notice: string | undefined
}

const sizeText = (bytes: number) => (bytes < 1024 ? `${bytes} bytes` : `${Math.ceil(bytes / 1024)} KiB`)

/** The evidence as it was sent: the text whole, the files by name and size. */
const sentEvidence = (dispute: Dispute) =>
  dispute.evidenceText === null
    ? ""
    : html`<section class="card" aria-labelledby="evidence-sent"><h2 id="evidence-sent">Evidence sent</h2>${
      // Its last change is the evidence's only while under review; a close moves it on.
      dispute.status === "under_review" ? html`<p class="muted">Sent ${timeText(dispute.updatedAt)}.</p>` : ""}<p class="wrap evidence">${dispute.evidenceText}</p>${
      dispute.evidenceFiles.length === 0
        ? ""
        : html`<h3>Files</h3><ul>${dispute.evidenceFiles.map((file) => html`<li><span class="wrap">${file.name}</span> <span class="muted">(${sizeText(file.size)})</span></li>`)}</ul>`
    }</section>`

/** The owner's answer, while the dispute waits for it and its deadline has not passed. */
const evidenceForm = (view: DisputeDetailView) => {
  const { frame, dispute } = view
  if (frame.visitor.role !== "owner" || dispute.status !== "needs_response") return ""
  if (view.at >= dispute.evidenceDueBy) {
    return html`<section class="card" aria-labelledby="answer"><h2 id="answer">Evidence</h2><p>The deadline for evidence has passed: the card network no longer takes it.</p></section>`
  }
  const problems = view.sent?.problems ?? {}
  return html`<section class="card" aria-labelledby="answer"><h2 id="answer">Answer with evidence</h2>
<form method="post" action="${frame.home}/disputes/${encodeURIComponent(dispute.id)}/evidence">${formTokenFields(frame)}
<label for="evidence-text">Why the payment stands</label>
<p class="muted" id="evidence-text-hint">What the card network reads: the order, its delivery or use, your exchanges with the customer. Up to ${MAX_EVIDENCE_TEXT.toLocaleString("en")} characters, sent once.</p>
<textarea id="evidence-text" name="text" rows="8" required maxlength="${String(MAX_EVIDENCE_TEXT)}"${
    fieldState("evidence-text", problems["text"]) === "" ? html` aria-describedby="evidence-text-hint"` : fieldState("evidence-text", problems["text"])
  }>${view.sent?.text ?? ""}</textarea>
${fieldProblem("evidence-text", problems["text"])}
<p class="muted">Files (up to ${String(MAX_EVIDENCE_FILES)}, ${String(MAX_EVIDENCE_FILE_BYTES / 1024)} KiB each) are sent through the API: POST /api/v1/disputes/{id}/evidence.</p>
<button type="submit" class="primary">Send evidence</button>
</form></section>`
}

export const disputeDetailPage = (view: DisputeDetailView) => {
  const { dispute, frame } = view
  const money = (amount: Dispute["amount"]) => view.money(amount, dispute.currency)
  const outcome = dispute.status === "won"
    ? `Won: ${money(dispute.amount)} came back to your balance; the fee stays spent.`
    : dispute.status === "lost"
    ? `Lost: the card network kept ${money(dispute.amount)}.`
    : dispute.status === "under_review"
    ? "Your evidence was sent; the card network is deciding."
    : `${money(dispute.amount)} and the ${money(dispute.fee)} fee are held from your balance while the dispute is open.`
  const facts = html`<section class="card" aria-labelledby="facts"><h2 id="facts">Dispute</h2><p>${outcome}</p><table><tbody>${[
    factRow("Dispute id", html`<code class="trx" data-copy="Dispute id">${dispute.id}</code>`),
    factRow("Status", statusLabel(dispute.status)),
    factRow("Payment", html`<a href="${paymentLink(frame, dispute.paymentTrxId)}"><code class="trx">${dispute.paymentTrxId}</code></a>`),
    factRow("Amount", money(dispute.amount)),
    factRow("Fee", money(dispute.fee)),
    factRow("Reason", html`<span class="wrap">${dispute.reason}</span>`),
    factRow("Evidence due", dueText(dispute, view.at)),
    factRow("Opened", timeText(dispute.createdAt)),
    factRow("Last change", timeText(dispute.updatedAt))
  ]}</tbody></table></section>`
  const problem = view.sent?.problem
  return framedPage(frame, "/disputes", `Dispute of ${money(dispute.amount)}`,
    html`${noticeBox(view.notice)}${problemBox(problem)}<p><a href="${linkTo(frame, "/disputes")}">All disputes</a></p>${facts}${evidenceForm(view)}${sentEvidence(dispute)}`)
}

/** A payment's disputes on its page: each with its status, reason and deadline, linked to its own page. */
export const paymentDisputes = (frame: PageFrame, money: MoneyText, at: Instant, disputes: ReadonlyArray<Dispute>) =>
  disputes.length === 0
    ? ""
    : html`<section class="card" aria-labelledby="payment-disputes"><h2 id="payment-disputes">Disputes</h2><ul>${
      disputes.map((dispute) =>
        html`<li><a href="${disputeLink(frame, dispute.id)}">Dispute of ${money(dispute.amount, dispute.currency)}</a> ${statusLabel(dispute.status)}<br><span class="muted">Reason:</span> <span class="wrap">${dispute.reason}</span>${
          isOpen(dispute.status) ? html`<br><span class="muted">Evidence due:</span> ${dueText(dispute, at)}` : ""
        }</li>`)
    }</ul></section>`

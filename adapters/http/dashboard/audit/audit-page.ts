import type { AuditEntry } from "../../../../core/audit/audit-entry.js"
import { html } from "../../pages/html.js"
import { cursorPager } from "../page-parts.js"
import { framedPage, type PageFrame } from "../layout.js"
import { timeText } from "../page-text.js"

export interface AuditView {
  readonly frame: PageFrame
  readonly entries: ReadonlyArray<AuditEntry>
  readonly next: string | undefined
  readonly first: string | undefined
}

/** What was changed, in words: the route's ids filled in, the environment apart. */
const what = (entry: AuditEntry) => {
  const { environment, ...ids } = entry.pathParams
  const target = Object.entries(ids).map(([name, value]) => `${name} ${value}`).join(", ")
  return `${entry.operation}${target === "" ? "" : ` (${target})`}${environment === undefined ? "" : `, ${environment}`}`
}

const outcome = (status: number) => (status < 400 ? "done" : "refused")

const row = (entry: AuditEntry) =>
  html`<tr><td data-label="When">${timeText(entry.createdAt)}</td><td data-label="Who" class="wrap whole">${entry.actorId}</td><td data-label="What" class="wrap">${what(entry)}</td><td data-label="From">${entry.sourceAddress}</td><td data-label="Outcome">${outcome(entry.status)}</td></tr>`

/** The dashboard's own changes to this merchant's account, newest first: who, what, when, from where. */
export const auditPage = (view: AuditView) => {
  const table = view.entries.length === 0
    ? html`<p>No change has been made from the dashboard yet.</p>`
    : html`<table class="cards"><caption class="muted">Newest first; times in UTC</caption><thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">What</th><th scope="col">From</th><th scope="col">Outcome</th></tr></thead><tbody>${view.entries.map(row)}</tbody></table>`
  const pager = cursorPager(view.first, view.next)
  return framedPage(view.frame, "/audit", "Audit log", html`<section class="card" aria-label="Dashboard changes">${table}${pager}</section>`)
}

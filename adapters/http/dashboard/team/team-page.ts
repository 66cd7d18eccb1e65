import type { MerchantUser } from "../../../../core/merchant-users/merchant-user.js"
import { html } from "../../pages/html.js"
import { framedPage, type PageFrame } from "../layout.js"
import { statusLabel, timeText } from "../page-text.js"

export interface TeamView {
  readonly frame: PageFrame
  readonly users: ReadonlyArray<MerchantUser>
}

const row = (user: MerchantUser) =>
  html`<tr><td data-label="Email" class="wrap whole">${user.email}</td><td data-label="Role">${user.role}</td><td data-label="Status">${statusLabel(user.status)}</td><td data-label="Last sign-in">${
    user.lastSignInAt === null ? "never" : timeText(user.lastSignInAt)
  }</td></tr>`

/** Who can sign in to this account, and who has; the operator invites and removes people (admin API). */
export const teamPage = (view: TeamView) => {
  const platform = view.frame.visitor.signedInBy === "platform"
  const table = view.users.length === 0
    ? html`<p>${platform ? "People sign in to this account through the platform, which keeps who they are." : "Nobody else can sign in to this account yet."} To add someone, ask the platform's operator.</p>`
    : html`<table class="cards"><caption class="muted">Oldest first; times in UTC</caption><thead><tr><th scope="col">Email</th><th scope="col">Role</th><th scope="col">Status</th><th scope="col">Last sign-in</th></tr></thead><tbody>${view.users.map(row)}</tbody></table>
<p class="muted">Owners change things; viewers read. Invited people have not set their password yet. To add or remove someone, ask the platform's operator.</p>`
  return framedPage(view.frame, "/team", "Team", html`<section class="card" aria-label="People">${table}</section>`)
}

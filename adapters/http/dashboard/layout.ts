import { availability } from "../../../core/merchants/review.js"
import type { Environment } from "../../../core/shared/environment.js"
import { html, type Html } from "../pages/html.js"
import { FORM_TOKEN_FIELD } from "./form-token.js"
import type { DashboardVisitor } from "./dashboard-visitor.js"

/**
 * The dashboard's sections, in the order the navigation lists them; `owners` ones are hidden from
 * viewers, `sandbox` ones shown in the sandbox only.
 */
export const SECTIONS = [
  { path: "", label: "Overview" },
  { path: "/payments", label: "Payments" },
  { path: "/balances", label: "Balances" },
  { path: "/payouts", label: "Payouts" },
  { path: "/disputes", label: "Disputes" },
  { path: "/subscriptions", label: "Subscriptions" },
  { path: "/test-clocks", label: "Test clocks", sandbox: true },
  { path: "/webhooks", label: "Webhooks" },
  { path: "/developers", label: "Developers" },
  { path: "/logs", label: "Logs" },
  { path: "/api-config", label: "API Config" },
  { path: "/statements", label: "Statements" },
  { path: "/sandbox-mail", label: "Sandbox mail", sandbox: true },
  { path: "/audit", label: "Audit log", owners: true },
  { path: "/team", label: "Team", owners: true }
] as const

export type SectionPath = typeof SECTIONS[number]["path"]

/** Everything a signed-in page is drawn with. */
export interface PageFrame {
  readonly home: string
  readonly visitor: DashboardVisitor
  readonly environment: Environment
  /** Production is offered only to an approved merchant. */
  readonly environments: ReadonlyArray<Environment>
  readonly formToken: string
}

/**
 * What the pages say while the merchant's account is closed to changes, or undefined while it is
 * open: the API's own rule (review.ts), so the keys and the dashboard are closed alike.
 */
export const closedAccount = (frame: Pick<PageFrame, "visitor" | "environment">): string | undefined => {
  const standing = availability(frame.visitor.merchant.status, frame.environment)
  if (standing._tag === "Available" || standing._tag === "PendingApproval") return undefined
  const status = standing._tag === "Suspended" ? "suspended" : standing.status
  return `This account is ${status}: its pages can be read, but nothing can be changed. The platform's operator can say why.`
}

/** A link inside the dashboard, in the frame's environment unless told otherwise. */
export const linkTo = (frame: Pick<PageFrame, "home" | "environment">, path: string, query: Record<string, string | undefined> = {}) => {
  const search = new URLSearchParams({ environment: frame.environment })
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== "") search.set(name, value)
  return `${frame.home}${path}?${search.toString()}`
}

/** The hidden inputs every dashboard form carries: its CSRF token and the environment it acts in. */
export const formTokenFields = (frame: PageFrame) =>
  html`<input type="hidden" name="${FORM_TOKEN_FIELD}" value="${frame.formToken}"><input type="hidden" name="environment" value="${frame.environment}">`

const document = (home: string, title: string, body: Html) => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Merchant dashboard</title>
<link rel="stylesheet" href="${home}/assets/dashboard.css">
<script src="${home}/assets/dashboard.js" defer></script>
</head>
<body>${body}</body>
</html>`

/** A page outside the signed-in frame: sign-in, set password, and what goes wrong before a session. */
export const plainPage = (home: string, title: string, body: Html) =>
  document(home, title, html`<main id="main"><h1>${title}</h1>${body}</main>`)

/** A short page saying what happened, with a way on. */
export const messagePage = (home: string, title: string, text: string, link?: { readonly href: string; readonly label: string }) =>
  plainPage(home, title, html`<div class="card"><p>${text}</p>${link === undefined ? "" : html`<p><a class="button" href="${link.href}">${link.label}</a></p>`}</div>`)

const environmentSwitch = (frame: PageFrame, section: string) => {
  if (frame.environments.length < 2) return ""
  const items = frame.environments.map((environment) => {
    const current = environment === frame.environment ? html` aria-current="page"` : ""
    const label = environment === "sandbox" ? "Sandbox" : "Production"
    return html`<li><a href="${linkTo({ home: frame.home, environment }, section)}"${current}>${label}</a></li>`
  })
  return html`<nav class="environments" aria-label="Environment"><ul>${items}</ul></nav>`
}

const navigation = (frame: PageFrame, current: SectionPath) => {
  const items = SECTIONS
    .filter((section) => !("owners" in section) || frame.visitor.role === "owner")
    .filter((section) => !("sandbox" in section) || frame.environment === "sandbox")
    .map((section) => {
      const here = section.path === current ? html` aria-current="page"` : ""
      return html`<li><a href="${linkTo(frame, section.path)}"${here}>${section.label}</a></li>`
    })
  return html`<nav class="sections" aria-label="Dashboard"><ul>${items}</ul></nav>`
}

const signOut = (frame: PageFrame) =>
  frame.visitor.signedInBy === "kit"
    ? html`<form class="inline" method="post" action="${frame.home}/logout">${formTokenFields(frame)}<button type="submit" class="secondary">Sign out</button></form>`
    : ""

/** A signed-in page: header with merchant and environment, navigation, sandbox banner, the page itself. */
export const framedPage = (frame: PageFrame, section: SectionPath, title: string, body: Html) => {
  const closed = closedAccount(frame)
  const banner = html`${closed === undefined ? "" : html`<div class="banner" role="status">${closed}</div>`}${
    frame.environment === "sandbox" ? html`<div class="banner" role="status">Sandbox: test data only, no real money moves.</div>` : ""
  }`
  return document(frame.home, title, html`<a class="skip" href="#content">Skip to content</a>
<main class="dashboard" id="main">
<header class="top"><span class="brand">${frame.visitor.merchant.name}</span><div class="who"><span class="muted">${frame.visitor.name} (${frame.visitor.role})</span>${signOut(frame)}</div></header>
${environmentSwitch(frame, section)}${navigation(frame, section)}${banner}
<div id="content" tabindex="-1"><h1>${title}</h1>${body}</div>
</main>`)
}

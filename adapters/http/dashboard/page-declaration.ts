import * as Schema from "effect/Schema"
import type { Parameter } from "../contract/parameters.js"
import type { OtherResponse } from "../openapi/operation.js"
import { type PageHandler, pageOperation, type PageRoute } from "../pages/page-route.js"

/** Who may open a page: anyone (sign-in, assets), anyone signed in to the merchant, or its owners only. */
export type Viewers = "anyone" | "member" | "owner"

/**
 * Who may send a form, each checked against the form token bound to them: a visitor before any
 * session (sign-in, set password: bound to the pre-session cookie), a signed-in member whatever the
 * account's standing (signing out), or an owner of an account open to changes.
 */
export type Senders = "visitor" | "member" | "owner"

/** How an owner's form is written in the audit log: the API's name for the same operation, and the fields that mattered (never their values). */
export interface AuditedAs {
  readonly operation: string
  readonly fields: ReadonlyArray<string>
}

type Described = Omit<PageRoute, "method" | "handler">

/**
 * One dashboard page or form, declared once: its route, its entry in the OpenAPI document (tag
 * "Merchant dashboard") and who may use it all follow from this. The dashboard router (dashboard-router.ts)
 * runs the sign-in, the form token, the role and the account's standing before the handler, and
 * writes an owner's change and its audit entry in one transaction: no handler checks or records
 * anything of this itself.
 */
export type DashboardPage<H extends PageHandler = PageHandler> =
  | Described & { readonly method: "get"; readonly view: Viewers; readonly handler: H }
  | Described & { readonly method: "post"; readonly form: "visitor" | "member"; readonly handler: H }
  | Described & {
    readonly method: "post"
    readonly form: "owner"
    /** How the change is audited; "reads only" for a form that changes nothing (a review before a confirm). */
    readonly audit: AuditedAs | "reads only"
    /**
     * The handler commits as it goes (it waits on something outside the store): its audit entry is
     * written after it instead of in its transaction.
     */
    readonly commitsAsItGoes?: true
    readonly handler: H
  }

export const dashboardRoute = <H extends PageHandler>(page: DashboardPage<H>): DashboardPage<H> => page

/** A path parameter of a dashboard page: text the page looks up within the visitor's merchant. */
export const pathText = (name: string, description: string): Parameter => ({
  name,
  in: "path",
  required: true,
  description,
  schema: Schema.String
})

export const HTML_PAGE = "text/html"

/** Whether a page is behind the dashboard's session (or the platform's sign-in). */
export const signedIn = (page: DashboardPage): boolean => ("view" in page ? page.view !== "anyone" : page.form !== "visitor")

const SIGNED_IN_OTHERS: ReadonlyArray<OtherResponse> = [
  { status: 303, description: "Not signed in: to the sign-in page (the platform's, when it signs people in)." }
]
const FORGED: OtherResponse = { status: 403, description: "The form's token is not this browser's.", contentType: HTML_PAGE }
const OWNERS_ONLY: OtherResponse = { status: 403, description: "A viewer, or an account closed to changes.", contentType: HTML_PAGE }

/** What a page may answer besides itself, from who may use it: the router's own refusals. */
const refusals = (page: DashboardPage): ReadonlyArray<OtherResponse> => [
  ...(signedIn(page) ? SIGNED_IN_OTHERS : []),
  ...("form" in page ? [page.form === "owner" ? { ...FORGED, description: `${FORGED.description} Or ${OWNERS_ONLY.description.toLowerCase()}` } : FORGED] : []),
  ...("view" in page && page.view === "owner" ? [{ ...OWNERS_ONLY, description: "A viewer." }] : [])
]

/** The page's entry in the OpenAPI document. */
export const dashboardOperation = (page: DashboardPage) =>
  pageOperation({ tag: "Merchant dashboard", security: () => (signedIn(page) ? "dashboard" : "none"), others: () => refusals(page) })({
    ...page,
    handler: page.handler
  })

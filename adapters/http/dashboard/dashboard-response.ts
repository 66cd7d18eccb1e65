import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Effect from "effect/Effect"
import type { Html } from "../pages/html.js"
import { htmlResponse } from "../pages/html-response.js"
import { locationOf } from "./dashboard-target.js"

/**
 * Headers for every dashboard answer: nothing cached (pages show balances and secrets), no script or
 * style but the kit's own files, no framing, forms post only back to the kit, and the referrer kept
 * within the site.
 */
export const DASHBOARD_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  "referrer-policy": "same-origin",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; form-action 'self'; frame-ancestors 'none'; base-uri 'none'"
}

/** A page: only an Html value (the template's), so no page can be sent that skipped its escaping. */
export const htmlAnswer = (status: number, page: Html, headers: Readonly<Record<string, string>> = {}) =>
  htmlResponse(page, { status, headers: { ...DASHBOARD_HEADERS, ...headers } })

/** After a form: 303 so a reload never posts twice. The Location is written by the URL rule (locationOf). */
export const seeOther = (location: string, headers: Readonly<Record<string, string>> = {}) =>
  HttpServerResponse.empty({ status: 303, headers: { ...DASHBOARD_HEADERS, ...headers, location: locationOf(location) } })

/** Why a dashboard request ends on another answer than its page: a redirect, or a page saying why. */
export class DashboardAnswer {
  readonly _tag = "DashboardAnswer"
  constructor(readonly response: HttpServerResponse.HttpServerResponse) {}
}

/** Ends the request on the page `answer` makes (a refusal said on the page it was sent from), whatever the handler was doing. */
export const answerInstead = <E, R>(answer: Effect.Effect<HttpServerResponse.HttpServerResponse, E, R>) =>
  Effect.flatMap(answer, (page) => Effect.fail(new DashboardAnswer(page)))

export const answerWith = <A, E, R>(flow: Effect.Effect<A, E | DashboardAnswer, R>) =>
  Effect.catchIf(flow, (error): error is DashboardAnswer => error instanceof DashboardAnswer, (answer) => Effect.succeed(answer.response))

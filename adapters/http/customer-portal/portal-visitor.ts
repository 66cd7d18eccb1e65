import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import { portalSessionOf } from "../../../core/customer-portal/portal-links.js"
import { PORTAL_SESSION_SECONDS } from "../../../core/customer-portal/portal-session.js"
import { pageHeaders } from "../checkout/html.js"
import type { Locale } from "../checkout/locale.js"
import { cookieToken } from "../dashboard/cookies.js"
import { DashboardSettings } from "../dashboard/dashboard-settings.js"
import { FORM_TOKEN_FIELD, formToken, formTokenValid } from "../dashboard/form-token.js"
import type { Html } from "../pages/html.js"
import { htmlResponse } from "../pages/html-response.js"
import { readRawBody } from "../request/request-body.js"
import { portalMessagesFor } from "./portal-messages.js"
import { PORTAL_PATH } from "./portal-paths.js"
import { type PortalNoticePage, portalNoticePage } from "./portal-pages.js"

/** The portal session's cookie: an opaque token of the kit's making (the store keeps its digest). */
export const PORTAL_COOKIE = "mp_portal"

/** Why a portal request ends on an explanatory page. */
export class PortalEndsOnPage {
  constructor(readonly status: number, readonly html: Html) {}
}

export const portalAnswer = (status: number, page: Html) => htmlResponse(page, { status, headers: pageHeaders() })

export const endsOn = (status: number, locale: Locale, key: PortalNoticePage, link?: { readonly href: string; readonly label: string }) =>
  new PortalEndsOnPage(status, portalNoticePage(locale, key, link))

/** A portal step as a page: where it ends on an explanatory page, that page is its answer. */
export const portalStep = <E, R>(flow: Effect.Effect<HttpServerResponse.HttpServerResponse, E | PortalEndsOnPage, R>) =>
  Effect.catchIf(flow, (error): error is PortalEndsOnPage => error instanceof PortalEndsOnPage, (ended) => Effect.succeed(portalAnswer(ended.status, ended.html)))

/**
 * The session cookie: HttpOnly, SameSite=Lax (sent on the top-level navigation back from the link's
 * redirect and from checkout, never on another site's form post), Secure under https, scoped to the
 * portal's path, and gone with the session's hour.
 */
export const withPortalCookie = (response: HttpServerResponse.HttpServerResponse, token: string) =>
  Effect.map(DashboardSettings, (settings) =>
    HttpServerResponse.unsafeSetCookie(response, PORTAL_COOKIE, token, {
      path: `${settings.basePath}${PORTAL_PATH}`,
      httpOnly: true,
      sameSite: "lax",
      secure: settings.secureCookies,
      maxAge: Duration.seconds(PORTAL_SESSION_SECONDS)
    }))

/** Forms are bound to the session's digest, so a page on another site cannot know their token. */
const boundTo = (sessionHash: string) => `customer-portal:${sessionHash}`

/** The visitor's portal session (its scope and its form token), or the page saying it has ended. */
export const portalVisitor = (locale: Locale) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const token = cookieToken(request.cookies, PORTAL_COOKIE)
    const ended = () => endsOn(401, locale, "sessionEnded")
    if (token === undefined) return yield* Effect.fail(ended())
    const session = yield* portalSessionOf(token).pipe(Effect.catchTag("PortalSessionEnded", () => Effect.fail(ended())))
    const settings = yield* DashboardSettings
    return { session, formToken: formToken(settings.formKeys[0]!, boundTo(session.sessionHash!)) }
  })

/** A posted portal form from the visitor's own page: refused (403) without the session's form token. */
export const portalForm = (locale: Locale, home: string) =>
  Effect.gen(function*() {
    const visitor = yield* portalVisitor(locale)
    const raw = yield* readRawBody.pipe(Effect.mapError(() => endsOn(400, locale, "formExpired", { href: home, label: portalMessagesFor(locale).allSubscriptions })))
    const form = new URLSearchParams(new TextDecoder().decode(raw))
    const settings = yield* DashboardSettings
    if (!formTokenValid(settings.formKeys, boundTo(visitor.session.sessionHash!), form.get(FORM_TOKEN_FIELD) ?? undefined)) {
      return yield* Effect.fail(endsOn(403, locale, "formExpired", { href: home, label: portalMessagesFor(locale).allSubscriptions }))
    }
    return visitor
  })

import { randomBytes } from "node:crypto"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import type * as HttpServerResponse from "@effect/platform/HttpServerResponse"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import { cookieToken, PRE_SESSION_COOKIE, withCookie } from "./cookies.js"
import { DashboardSettings } from "./dashboard-settings.js"
import { formToken } from "./form-token.js"
import { checkFormToken, formBody, refuseForgedForm } from "./page-frame.js"
import { dashboardPath } from "./visitor.js"

// Before a session exists, forms (sign in, set a password) are bound to a random pre-session
// cookie, so a page on another site cannot sign a visitor in or set a password for them.

/** The value a visitor's forms are bound to, whether the answer must set it, and the token it gives. */
export interface PreSessionValue {
  readonly value: string
  readonly isNew: boolean
  readonly token: string
}

/** The pre-session of a visitor's form, given by the dashboard router once the form's token matched it. */
export class PreSession extends Context.Tag("merchant-payments/http/dashboard/PreSession")<PreSession, PreSessionValue>() {}

/** Where the dashboard's cookies are scoped: its own path, Secure when the host says so. */
export const cookieScope = Effect.gen(function*() {
  return { path: yield* dashboardPath, secure: (yield* DashboardSettings).secureCookies }
})

const tokenFor = (value: string) => Effect.map(DashboardSettings, (settings) => formToken(settings.formKeys[0]!, `pre:${value}`))

/** The pre-session value forms are bound to: the visitor's cookie, or a new one the answer sets. */
export const preSession = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const existing = cookieToken(request.cookies, PRE_SESSION_COOKIE)
  const value = existing ?? randomBytes(24).toString("base64url")
  return { value, isNew: existing === undefined, token: yield* tokenFor(value) } satisfies PreSessionValue
})

/** The answer, setting the pre-session cookie when it is new. */
export const withPreSession = (response: HttpServerResponse.HttpServerResponse, pre: PreSessionValue) =>
  Effect.map(cookieScope, (scope) => (pre.isNew ? withCookie(response, PRE_SESSION_COOKIE, pre.value, scope) : response))

/** A visitor's posted form: its fields, refused (403) without the visitor's pre-session token. */
export const visitorForm = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const form = yield* formBody
  const pre = cookieToken(request.cookies, PRE_SESSION_COOKIE)
  if (pre === undefined) return yield* Effect.fail(refuseForgedForm(yield* dashboardPath))
  yield* checkFormToken(form, `pre:${pre}`)
  return { form, pre: { value: pre, isNew: false, token: yield* tokenFor(pre) } satisfies PreSessionValue }
})

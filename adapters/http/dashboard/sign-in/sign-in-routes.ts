import * as HttpRouter from "@effect/platform/HttpRouter"
import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import { passwordLinkUser, setPasswordWithLink } from "../../../../core/merchant-users/password-link.js"
import { signIn, signOut } from "../../../../core/merchant-users/sign-in.js"
import { cookieToken, PRE_SESSION_COOKIE, SESSION_COOKIE, withCookie, withoutCookie } from "../cookies.js"
import { cookieScope, PreSession, preSession, withPreSession } from "../pre-session.js"
import { DashboardAnswer, htmlAnswer, seeOther } from "../dashboard-response.js"
import { DashboardSettings } from "../dashboard-settings.js"
import { messagePage } from "../layout.js"
import { CurrentFrame, requestQuery, SentForm } from "../page-frame.js"
import { setPasswordPage, signInPage } from "./sign-in-pages.js"
import { dashboardTarget } from "../dashboard-target.js"
import { dashboardPath, platformSignInUrl } from "../visitor.js"
import { clientAddress } from "../../request/client-address.js"
import { dashboardRoute, HTML_PAGE, pathText } from "../page-declaration.js"

// Signing in with the kit's own merchant users: the sign-in form, the one-time set-password link and
// sign-out. Their forms before a session are bound to the pre-session (pre-session.ts).

/** Where to go after signing in: the dashboard page the visitor asked for (dashboardTarget), never anywhere else. */
const safeNext = (home: string, next: string | null): string | undefined => {
  const target = next === null ? undefined : dashboardTarget(home, next)
  return target === undefined ? undefined : `${target.path}${target.search}`
}

/** The platform signs people in itself: its sign-in page is the only one, told where to come back to. */
const platformSignIn = Effect.gen(function*() {
  const platform = (yield* DashboardSettings).platform
  if (platform === undefined) return
  const next = safeNext(yield* dashboardPath, (yield* requestQuery).get("next"))
  return yield* Effect.fail(new DashboardAnswer(seeOther(next === undefined ? platform.signInUrl : platformSignInUrl(platform.signInUrl, next))))
})

const showSignIn = Effect.gen(function*() {
  yield* platformSignIn
  const home = yield* dashboardPath
  const query = yield* requestQuery
  const pre = yield* preSession
  const view = { home, formToken: pre.token, next: safeNext(home, query.get("next")) }
  const notice = query.get("password") === "set" ? { notice: "Your password is set. Sign in with it." } : {}
  return yield* withPreSession(htmlAnswer(200, signInPage({ ...view, ...notice })), pre)
})

const minutes = (seconds: number) => Math.max(1, Math.ceil(seconds / 60))

const submitSignIn = Effect.gen(function*() {
  yield* platformSignIn
  const home = yield* dashboardPath
  const request = yield* HttpServerRequest.HttpServerRequest
  const form = yield* SentForm
  const pre = yield* PreSession
  const email = form.get("email") ?? ""
  const next = safeNext(home, form.get("next"))
  const again = (status: number, problem: string, headers: Readonly<Record<string, string>> = {}) =>
    htmlAnswer(status, signInPage({ home, formToken: pre.token, next, email, problem }), headers)
  const signedIn = yield* signIn({ email, password: form.get("password") ?? "", address: yield* clientAddress(request) }).pipe(
    Effect.catchTags({
      SignInFailed: () => Effect.fail(new DashboardAnswer(again(401, "That email and password do not match an account that can sign in."))),
      SignInThrottled: ({ retryAfterSeconds }) =>
        Effect.fail(new DashboardAnswer(again(429, `Too many failed attempts. Try again in ${minutes(retryAfterSeconds)} minute(s).`, {
          "retry-after": String(retryAfterSeconds)
        })))
    })
  )
  // A new session every sign-in: whatever session the browser carried before is ended, not reused.
  const previous = cookieToken(request.cookies, SESSION_COOKIE)
  if (previous !== undefined) yield* signOut(previous)
  const scope = yield* cookieScope
  return withoutCookie(withCookie(seeOther(next ?? home), SESSION_COOKIE, signedIn.sessionToken, scope), PRE_SESSION_COOKIE, scope)
})

const linkToken = Effect.map(HttpRouter.params, (params) => params["link_token"] ?? "")

const linkGone = (home: string) =>
  new DashboardAnswer(htmlAnswer(410, messagePage(home, "This link cannot be used", "It was used already or is more than 24 hours old. Ask whoever invited you for a new one.")))

const showSetPassword = Effect.gen(function*() {
  const home = yield* dashboardPath
  const token = yield* linkToken
  const user = yield* passwordLinkUser(token).pipe(Effect.catchTag("PasswordLinkInvalid", () => Effect.fail(linkGone(home))))
  const pre = yield* preSession
  const page = setPasswordPage({ home, action: `${home}/set-password/${token}`, formToken: pre.token, email: user.email })
  return yield* withPreSession(htmlAnswer(200, page), pre)
})

const submitSetPassword = Effect.gen(function*() {
  const home = yield* dashboardPath
  const token = yield* linkToken
  const form = yield* SentForm
  const pre = yield* PreSession
  const user = yield* passwordLinkUser(token).pipe(Effect.catchTag("PasswordLinkInvalid", () => Effect.fail(linkGone(home))))
  yield* setPasswordWithLink(token, form.get("password") ?? "").pipe(
    Effect.catchTags({
      PasswordLinkInvalid: () => Effect.fail(linkGone(home)),
      ValidationFailed: (failure) =>
        Effect.fail(new DashboardAnswer(htmlAnswer(422, setPasswordPage({
          home,
          action: `${home}/set-password/${token}`,
          formToken: pre.token,
          email: user.email,
          problem: Object.values(failure.errors).flat().join(" ") || "That password cannot be used."
        }))))
    })
  )
  return seeOther(`${home}/login?password=set`)
})

const submitSignOut = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const frame = yield* CurrentFrame
  const token = cookieToken(request.cookies, SESSION_COOKIE)
  if (token !== undefined) yield* signOut(token)
  return withoutCookie(seeOther(`${frame.home}/login`), SESSION_COOKIE, yield* cookieScope)
})

const TOKEN = pathText("link_token", "The one-time token of a set_password_url.")

export const dashboardSignInPages = [
  dashboardRoute({
    method: "get", path: "/dashboard/login", operationId: "dashboardSignInForm", view: "anyone",
    summary: "The sign-in form (inputs email and password)",
    description: "`next`: the dashboard page to go to afterwards. With the platform's own sign-in, a 303 to it.",
    success: { status: 200, description: "The form.", contentType: HTML_PAGE },
    others: [{ status: 303, description: "The platform signs people in: to its sign-in page." }],
    handler: showSignIn
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/login", operationId: "dashboardSignIn", form: "visitor",
    summary: "Sign in",
    description: "Form fields `email`, `password`, `csrf_token`, `next`. A new session every time; failures are told alike whether or not the account exists.",
    success: { status: 303, description: "Signed in: to the dashboard, with the session cookie." },
    others: [
      { status: 401, description: "The email and password do not match an account that can sign in.", contentType: HTML_PAGE },
      { status: 429, description: "Too many failures for this account or address: Retry-After says when to try again.", contentType: HTML_PAGE }
    ],
    handler: submitSignIn
  }),
  dashboardRoute({
    method: "get", path: "/dashboard/set-password/{link_token}", operationId: "dashboardSetPasswordForm", view: "anyone",
    summary: "A merchant user's one-time link: the form that sets its password",
    parameters: [TOKEN],
    success: { status: 200, description: "The form.", contentType: HTML_PAGE },
    others: [{ status: 410, description: "The link was used or is older than 24 hours.", contentType: HTML_PAGE }],
    handler: showSetPassword
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/set-password/{link_token}", operationId: "dashboardSetPassword", form: "visitor",
    summary: "Set the password (12 characters at least); the link is then spent",
    parameters: [TOKEN],
    success: { status: 303, description: "Set: to the sign-in form." },
    others: [{ status: 410, description: "The link was used or is older than 24 hours.", contentType: HTML_PAGE }, { status: 422, description: "The password cannot be used, said on the page.", contentType: HTML_PAGE }],
    handler: submitSetPassword
  }),
  dashboardRoute({
    method: "post", path: "/dashboard/logout", operationId: "dashboardSignOut", form: "member",
    summary: "Sign out: the session ends on every host",
    success: { status: 303, description: "To the sign-in form, the cookie cleared." },
    handler: submitSignOut
  })
] as const

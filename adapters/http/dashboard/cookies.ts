import * as HttpServerResponse from "@effect/platform/HttpServerResponse"

// The dashboard's two cookies. Both hold opaque base64url tokens of the kit's own making, which is
// why the platform's unchecked setter is safe here.

/** The signed-in session's token (the store keeps only its hash). */
export const SESSION_COOKIE = "mp_dashboard"
/** A random value the sign-in and set-password forms' tokens are bound to before any session exists. */
export const PRE_SESSION_COOKIE = "mp_dashboard_pre"

const TOKEN = /^[A-Za-z0-9_-]{16,128}$/

/** A cookie's value when it is shaped like one of ours; undefined otherwise. */
export const cookieToken = (cookies: Readonly<Record<string, string>>, name: string): string | undefined => {
  const value = cookies[name]
  return value !== undefined && TOKEN.test(value) ? value : undefined
}

export interface CookieScope {
  readonly path: string
  readonly secure: boolean
}

/** HttpOnly, SameSite=Lax, Secure under https, scoped to the dashboard's path; a browser-session cookie (the store ends it). */
export const withCookie = (response: HttpServerResponse.HttpServerResponse, name: string, value: string, scope: CookieScope) =>
  HttpServerResponse.unsafeSetCookie(response, name, value, { path: scope.path, httpOnly: true, sameSite: "lax", secure: scope.secure })

export const withoutCookie = (response: HttpServerResponse.HttpServerResponse, name: string, scope: CookieScope) =>
  HttpServerResponse.unsafeSetCookie(response, name, "", { path: scope.path, httpOnly: true, sameSite: "lax", secure: scope.secure, maxAge: 0 })

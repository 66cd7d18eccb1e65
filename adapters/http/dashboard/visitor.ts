import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { MerchantRepository } from "../../../core/merchants/merchant-repository.js"
import { USER_ROLES, type UserRole } from "../../../core/merchant-users/merchant-user.js"
import type { DashboardVisitor } from "./dashboard-visitor.js"
import { resumeSession } from "../../../core/merchant-users/sign-in.js"
import { MerchantId } from "../../../core/shared/ids.js"
import { incomingMessageOf } from "../request/node-body-reader.js"
import { pathAndQuery } from "../request/request-target.js"
import { cookieToken, SESSION_COOKIE, withoutCookie } from "./cookies.js"
import { DashboardAnswer, htmlAnswer, seeOther } from "./dashboard-response.js"
import { DashboardSettings, type PlatformIdentity } from "./dashboard-settings.js"
import { messagePage } from "./layout.js"

/** The dashboard's own path under the kit's base path. */
export const dashboardPath = Effect.map(DashboardSettings, (settings) => `${settings.basePath}/dashboard`)

/** The page asked for, under the base path: the router sees the path without it. */
const requestPath = Effect.map(HttpServerRequest.HttpServerRequest, (request) => pathAndQuery(request.url))

/**
 * The platform's sign-in address with `next` (the page asked for, a path on this origin) added to its
 * query, so the platform can bring the visitor back; its own query and fragment are kept. Whether to
 * follow `next` is the platform's choice, as is checking it.
 */
export const platformSignInUrl = (signInUrl: string, asked: string): string => {
  const absolute = /^https?:\/\//i.test(signInUrl)
  const url = new URL(signInUrl, "http://platform.invalid")
  url.searchParams.set("next", asked)
  return absolute ? url.href : `${url.pathname}${url.search}${url.hash}`
}

/** To the sign-in form, coming back to the page asked for afterwards. */
const toSignIn = Effect.gen(function*() {
  const settings = yield* DashboardSettings
  const home = yield* dashboardPath
  const asked = `${settings.basePath}${yield* requestPath}`
  if (settings.platform !== undefined) return new DashboardAnswer(seeOther(platformSignInUrl(settings.platform.signInUrl, asked)))
  const response = seeOther(`${home}/login?next=${encodeURIComponent(asked)}`)
  return new DashboardAnswer(withoutCookie(response, SESSION_COOKIE, { path: home, secure: settings.secureCookies }))
})

const knownMerchant = (id: number) =>
  Effect.flatMap(MerchantRepository, (merchants) => merchants.findById(MerchantId(id))).pipe(Effect.map(Option.getOrUndefined))

const fromKitSession = Effect.gen(function*() {
  const request = yield* HttpServerRequest.HttpServerRequest
  const token = cookieToken(request.cookies, SESSION_COOKIE)
  if (token === undefined) return yield* Effect.fail(yield* toSignIn)
  const resumed = yield* resumeSession(token).pipe(Effect.catchTag("SessionInvalid", () => Effect.flatMap(toSignIn, Effect.fail)))
  const merchant = yield* knownMerchant(resumed.user.merchantId)
  if (merchant === undefined) return yield* Effect.fail(yield* toSignIn)
  const visitor: DashboardVisitor = {
    merchant,
    userId: resumed.user.id,
    name: resumed.user.email,
    role: resumed.user.role,
    boundTo: `session:${resumed.sessionId}`,
    signedInBy: "kit"
  }
  return visitor
})

/** The platform's answer, checked: its function is code the kit did not write. */
const platformIdentity = (value: unknown): PlatformIdentity | null | undefined => {
  if (value === null) return null
  if (typeof value !== "object" || value === undefined) return undefined
  const { merchantId, userId, role } = value as Record<string, unknown>
  const good = typeof merchantId === "number" && Number.isSafeInteger(merchantId) && merchantId > 0 &&
    typeof userId === "string" && userId.length > 0 && userId.length <= 200 &&
    typeof role === "string" && (USER_ROLES as ReadonlyArray<string>).includes(role)
  return good ? { merchantId, userId, role: role as UserRole } : undefined
}

/** The platform's sign-in is broken: the operator reads why in the log, the visitor a plain page. */
const misconfigured = (why: string) =>
  Effect.gen(function*() {
    yield* Effect.logError(`dashboard: the platform's authenticate ${why}`)
    const page = messagePage(yield* dashboardPath, "The dashboard is not available", "The platform's sign-in could not be read. Its operator has been told.")
    return yield* Effect.fail(new DashboardAnswer(htmlAnswer(500, page)))
  })

const fromPlatform = Effect.gen(function*() {
  const settings = yield* DashboardSettings
  const platform = settings.platform!
  const incoming = incomingMessageOf(yield* HttpServerRequest.HttpServerRequest)
  if (incoming === undefined) return yield* misconfigured("needs the kit served by node:http")
  const answered = yield* Effect.tryPromise(async () => await platform.authenticate(incoming)).pipe(
    Effect.catchAll((error) => misconfigured(`threw: ${error.error instanceof Error ? error.error.message : String(error.error)}`))
  )
  const identity = platformIdentity(answered)
  if (identity === undefined) {
    return yield* misconfigured("answered something other than null or { merchantId: positive integer, userId: non-empty string, role: \"owner\" | \"viewer\" }")
  }
  if (identity === null) return yield* Effect.fail(yield* toSignIn)
  const merchant = yield* knownMerchant(identity.merchantId)
  if (merchant === undefined) return yield* misconfigured(`named merchant ${identity.merchantId}, which does not exist`)
  const visitor: DashboardVisitor = {
    merchant,
    userId: identity.userId,
    name: identity.userId,
    role: identity.role,
    boundTo: `platform:${merchant.id}:${identity.userId}`,
    signedInBy: "platform"
  }
  return visitor
})

/** The visitor, or the answer that sends them to sign in. */
export const dashboardVisitor = Effect.flatMap(DashboardSettings, (settings) => (settings.platform === undefined ? fromKitSession : fromPlatform))

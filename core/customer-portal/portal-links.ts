import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { newSecretToken, tokenHash } from "../merchant-users/secret-token.js"
import { type Instant, now, plusSeconds } from "../shared/instant.js"
import { PORTAL_LINK_SECONDS, PORTAL_SESSION_SECONDS, PortalLinkRefused, type PortalSession, PortalSessionEnded } from "./portal-session.js"
import { PortalSessionRepository } from "./portal-session-repository.js"

/** Links and sessions stay a day past their expiry (a late visit still reads "expired", not "unknown"), then go. */
const KEPT_AFTER_EXPIRY_SECONDS = 86_400

/**
 * A single-use portal link for one customer of the caller (in the caller's environment): a fresh
 * 256-bit token, of which the store keeps only the digest, valid for an hour. Expired links of a day
 * ago are swept on the way, so the table holds only what can still be answered.
 */
export const openPortalLink = (caller: MerchantScope, request: { readonly customerEmail: string; readonly returnUrl: string }) =>
  Effect.gen(function*() {
    const repo = yield* PortalSessionRepository
    const at = yield* now
    const token = yield* newSecretToken
    const expiresAt = plusSeconds(at, PORTAL_LINK_SECONDS)
    yield* repo.deleteExpired(plusSeconds(at, -KEPT_AFTER_EXPIRY_SECONDS))
    yield* repo.insert({
      linkHash: tokenHash(token),
      merchantId: caller.merchant.id,
      environment: caller.environment,
      customerEmail: request.customerEmail,
      returnUrl: request.returnUrl,
      linkExpiresAt: expiresAt,
      createdAt: at
    })
    return { token, expiresAt }
  })

const refusal = (reason: "unknown" | "used" | "expired", link: PortalSession | undefined) =>
  new PortalLinkRefused({ reason, returnUrl: link?.returnUrl ?? null, merchantId: link?.merchantId ?? null })

/**
 * The link's one visit: a new session (its token for the cookie; the store keeps its digest), or why
 * not. A second visit of the same link, even a second later, is refused ("used").
 */
export const redeemPortalLink = (token: string) =>
  Effect.gen(function*() {
    const repo = yield* PortalSessionRepository
    const at = yield* now
    const linkHash = tokenHash(token)
    const sessionToken = yield* newSecretToken
    const sessionExpiresAt = plusSeconds(at, PORTAL_SESSION_SECONDS)
    const redeemed = yield* repo.redeem(linkHash, { sessionHash: tokenHash(sessionToken), sessionExpiresAt }, at)
    if (Option.isSome(redeemed)) return { sessionToken, session: redeemed.value }
    const known = Option.getOrUndefined(yield* repo.findByLink(linkHash))
    if (known === undefined) return yield* refusal("unknown", undefined)
    return yield* refusal(known.redeemedAt !== null ? "used" : "expired", known)
  })

const live = (session: PortalSession, at: Instant) => session.sessionExpiresAt !== null && session.sessionExpiresAt > at

/** The portal session a cookie's token names, while it lasts. */
export const portalSessionOf = (sessionToken: string) =>
  Effect.gen(function*() {
    const found = yield* (yield* PortalSessionRepository).findBySession(tokenHash(sessionToken))
    if (Option.isNone(found) || !live(found.value, yield* now)) return yield* new PortalSessionEnded()
    return found.value
  })

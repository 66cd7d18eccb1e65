import * as Schema from "effect/Schema"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"

/** How long a portal link may wait for its one visit. */
export const PORTAL_LINK_SECONDS = 3600
/** How long the portal session a visit opens lasts (absolute, from the visit): short, since the link is the credential. */
export const PORTAL_SESSION_SECONDS = 3600

/**
 * Whose billing a portal shows: one customer (by e-mail) of one merchant in one environment. Every
 * portal read and action is limited to it, so another customer's data is never reachable.
 */
export interface PortalScope {
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly customerEmail: string
  /** Where "Return to <merchant>" leads: the merchant's own page, given when the link was made. */
  readonly returnUrl: string
}

/**
 * A portal link and, once visited, the session it opened. The store keeps only SHA-256 digests of the
 * link's token and of the session's cookie token (core/merchant-users/secret-token.ts).
 */
export interface PortalSession extends PortalScope {
  readonly linkHash: string
  readonly linkExpiresAt: Instant
  readonly sessionHash: string | null
  readonly sessionExpiresAt: Instant | null
  readonly redeemedAt: Instant | null
  readonly createdAt: Instant
}

/** Why a link opens no portal: never issued (or purged), already visited once, or past its hour. */
export class PortalLinkRefused extends Schema.TaggedError<PortalLinkRefused>()("PortalLinkRefused", {
  reason: Schema.Literal("unknown", "used", "expired"),
  /** The merchant's return address, when the link is known: the refusal page offers the way back. */
  returnUrl: Schema.NullOr(Schema.String),
  merchantId: Schema.NullOr(Schema.Number)
}) {}

/** No portal session behind the cookie (none, ended, or expired): the customer asks the merchant for a new link. */
export class PortalSessionEnded extends Schema.TaggedError<PortalSessionEnded>()("PortalSessionEnded", {}) {}

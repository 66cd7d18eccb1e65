import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"

/**
 * Who made a change: the operator's admin token, or a merchant's dashboard user in the same
 * log, so a merchant's owners can be shown who refunded or rolled a secret.
 */
export const ACTOR_TYPES = ["admin_token", "merchant_user"] as const
export type ActorType = typeof ACTOR_TYPES[number]

/**
 * One change someone asked of the kit, as the audit log keeps it. It says who, what, when and from
 * where, and never carries a value that was sent: a body can hold secrets (gateway keys), so only
 * the names of the fields sent are kept.
 */
export interface NewAuditEntry {
  readonly actorType: ActorType
  /** A stable, non-secret name of the actor: for an admin token, a fingerprint of it, never the token. */
  readonly actorId: string
  /** The client's address as the rate limits count it: the socket's, or the one a trusted proxy names. */
  readonly sourceAddress: string
  /** The operation asked for: the API's operation id (`updateMerchant`). */
  readonly operation: string
  readonly method: string
  /** The route's template (`/admin/v1/merchants/{id}`), with the ids it named in `pathParams`. */
  readonly route: string
  readonly pathParams: Readonly<Record<string, string>>
  /** The merchant the change concerns, when it concerns one. */
  readonly merchantId: MerchantId | null
  /** How the change was answered: 2xx done, 4xx refused. */
  readonly status: number
  /** The names of the top-level fields the request sent, sorted; never their values. */
  readonly fields: ReadonlyArray<string>
  /** The request's X-Request-Id, to find its log line. */
  readonly requestId: string | null
}

export interface AuditEntry extends NewAuditEntry {
  readonly id: number
  readonly createdAt: Instant
}

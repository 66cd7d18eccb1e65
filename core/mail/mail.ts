import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { MailContent } from "./mail-kind.js"

/**
 * pending: waiting for (another) attempt; sent: the transport accepted it; failed: attempts ran out;
 * captured: a sandbox mail kept for the dashboard's Sandbox mail page and sent nowhere.
 */
export type MailStatus = "pending" | "sent" | "failed" | "captured"
export const MAIL_STATUSES: ReadonlyArray<MailStatus> = ["pending", "sent", "failed", "captured"]

/** One mail in the outbox: written in the transaction of the change it tells about. */
export type OutboxMail = MailContent & {
  readonly id: string
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly to: string
  /** A language tag (`fr`, `ar-EG`); the templates fall back to English. */
  readonly locale: string | null
  readonly status: MailStatus
  readonly attempts: number
  /** When it is tried next; null once final (and for captured sandbox mail). */
  readonly nextAttemptAt: Instant | null
  readonly lastError: string | null
  readonly sentAt: Instant | null
  readonly createdAt: Instant
  readonly updatedAt: Instant
}

/** What one attempt leaves on the row. */
export interface MailProgress {
  readonly status: MailStatus
  readonly attempts: number
  readonly nextAttemptAt: Instant | null
  readonly lastError: string | null
  readonly sentAt: Instant | null
  /** The facts kept from now on (secrets wiped once final). */
  readonly content: MailContent
  readonly at: Instant
}

/** A mail as the templates render it: subject, plain text and HTML. */
export interface RenderedMail {
  readonly subject: string
  readonly text: string
  readonly html: string
}

import * as Effect from "effect/Effect"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import { now } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import { deliveryTime } from "../shared/test-clock-time.js"
import { Ids } from "../signing/random-ids.js"
import type { OutboxMail } from "./mail.js"
import { mailDelivery } from "./mail-delivery.js"
import type { MailFacts, MailKind } from "./mail-kind.js"
import { MailOutbox } from "./mail-outbox.js"

export interface MailRequest<K extends MailKind> {
  readonly merchantId: MerchantId
  /** Sandbox mail is captured for the dashboard (and sent only to SANDBOX_SMTP_URL); production mail goes to SMTP_URL. */
  readonly environment: Environment
  /** One address: the subscription's customer_email or the dashboard user's email. */
  readonly to: string
  readonly kind: K
  readonly facts: MailFacts[K]
  /** A language tag (`fr`, `ar-EG`); English when absent or not one of the checkout's languages. */
  readonly locale?: string | null | undefined
}

/**
 * Puts a mail in the outbox. Call it INSIDE the transaction of the change the mail tells about
 * (`Transactor.withTransaction`): a rolled-back change sends nothing, and a committed one is sent
 * even if the process dies right after. The dispatcher sends it later, with retries.
 *
 * Production mail with no transport configured (no SMTP_URL) is not queued at all; sandbox mail is
 * always kept for the dashboard's Sandbox mail page. Answers the mail's id, or null when not queued.
 *
 * ```ts
 * yield* enqueueMail({ merchantId, environment, to: subscription.customerEmail, kind: "trial_ending",
 *   facts: { subscriptionId, description, amount: "9.99", currency: "USD", trialEnd: toIsoString(at) } })
 * ```
 */
export const enqueueMail = <K extends MailKind>(request: MailRequest<K>): Effect.Effect<string | null, StorageError, MailOutbox | Ids> =>
  Effect.gen(function*() {
    const delivery = yield* mailDelivery
    if (request.environment === "production" && !delivery.production) return null
    const sends = request.environment === "production" || delivery.sandbox
    // A test clock's mail is queued on the deployment's time: a renewal a year ahead in clock time
    // is mailed now, not in a year (its facts keep the clock's dates).
    const at = yield* deliveryTime(yield* now)
    const id = yield* (yield* Ids).uuid
    const mail = {
      id,
      merchantId: request.merchantId,
      environment: request.environment,
      to: request.to,
      kind: request.kind,
      facts: request.facts,
      locale: request.locale ?? null,
      status: sends ? "pending" : "captured",
      attempts: 0,
      nextAttemptAt: sends ? at : null,
      lastError: null,
      sentAt: null,
      createdAt: at,
      updatedAt: at
    } as OutboxMail
    yield* (yield* MailOutbox).enqueue(mail)
    return id
  })

import type * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import { forkBatchedSweep } from "../shared/batched-sweep.js"
import { Instant, now } from "../shared/instant.js"
import { realNow } from "../shared/real-clock.js"
import type { MailProgress, OutboxMail } from "./mail.js"
import { withoutSecrets } from "./mail-kind.js"
import { MailOutbox } from "./mail-outbox.js"
import { MailRenderer } from "./mail-renderer.js"
import { MailTransport } from "./mail-transport.js"

export interface MailPolicy {
  /** Waits before the 2nd, 3rd... attempt; attempts in total = 1 + its length. */
  readonly retryDelaysMillis: ReadonlyArray<number>
  /** How long a claimed mail is this host's: beyond the SMTP timeouts, so a live send keeps it. */
  readonly leaseMillis: number
}

/** 1 min, 5 min, 30 min, 2 h, 6 h: six attempts over about nine hours, then failed. */
export const defaultMailPolicy: MailPolicy = {
  retryDelaysMillis: [60_000, 300_000, 1_800_000, 7_200_000, 21_600_000],
  leaseMillis: 5 * 60_000
}

const plusMillis = (instant: Instant, millis: number): Instant => Instant(instant + BigInt(Math.trunc(millis)) * 1000n)

/** Sent on success; else retried after the policy's next delay, failed when they run out or the refusal is permanent. */
export const progressAfter = (
  mail: OutboxMail,
  outcome: Either.Either<void, { readonly reason: string; readonly permanent: boolean }>,
  at: Instant,
  policy: MailPolicy
): MailProgress => {
  const attempts = mail.attempts + 1
  if (Either.isRight(outcome)) {
    return { status: "sent", attempts, nextAttemptAt: null, lastError: null, sentAt: at, content: withoutSecrets(mail), at }
  }
  const delay = outcome.left.permanent ? undefined : policy.retryDelaysMillis[attempts - 1]
  return delay === undefined
    ? { status: "failed", attempts, nextAttemptAt: null, lastError: outcome.left.reason, sentAt: null, content: withoutSecrets(mail), at }
    : { status: "pending", attempts, nextAttemptAt: plusMillis(at, delay), lastError: outcome.left.reason, sentAt: null, content: mail, at }
}

/** An SMTP reply often repeats the recipient (`550 <ada@example.com>: unknown`): the log names the mail, not the person. */
export const withoutAddresses = (reason: string | null): string => (reason ?? "").replace(/<?[^\s<>@]+@[^\s<>@]+>?/g, "<address>")

/** What an operator reads: which mail, what kind, what became of it. Never the address, the facts or a token. */
const logOutcome = (mail: OutboxMail, progress: MailProgress) => {
  const fields = { mail_id: mail.id, kind: mail.kind, merchant_id: String(mail.merchantId), environment: mail.environment, attempts: progress.attempts }
  const log = progress.status === "sent"
    ? Effect.logInfo("mail sent")
    : Effect.logWarning(
      progress.status === "failed"
        ? `mail failed: no more attempts: ${withoutAddresses(progress.lastError)}`
        : `mail attempt failed; retrying later: ${withoutAddresses(progress.lastError)}`
    )
  return Effect.annotateLogs(log, fields)
}

/** One due mail, if this host wins its claim: rendered, handed to the transport, its outcome recorded. */
const sendOne = (mail: OutboxMail, leaseNow: Instant, leaseUntil: Instant, policy: MailPolicy) =>
  Effect.gen(function*() {
    const outbox = yield* MailOutbox
    if (mail.nextAttemptAt === null || !(yield* outbox.claim(mail.id, mail.nextAttemptAt, leaseNow, leaseUntil))) return
    const rendered = yield* (yield* MailRenderer).render(mail)
    const outcome = yield* Effect.either((yield* MailTransport).send({ ...rendered, to: mail.to, environment: mail.environment }))
    const progress = progressAfter(mail, outcome, yield* now, policy)
    yield* outbox.record(mail.id, progress)
    yield* logOutcome(mail, progress)
  }).pipe(
    // The row keeps its lease and is taken up again when it lapses.
    Effect.catchAllCause((cause) =>
      Effect.logWarning("mail could not be sent or recorded; it is tried again later", cause).pipe(
        Effect.annotateLogs({ mail_id: mail.id })))
  )

/** One pass: claims what is due and sends it; answers the count of due rows read. */
export const sendDueMail = (limit: number, policy: MailPolicy = defaultMailPolicy) =>
  Effect.gen(function*() {
    // Due dates on business time; the lease on the wall clock, whatever a manual clock says.
    const leaseNow = yield* realNow
    const due = yield* (yield* MailOutbox).listDue(yield* now, leaseNow, limit)
    const leaseUntil = plusMillis(leaseNow, policy.leaseMillis)
    yield* Effect.forEach(due, (mail) => sendOne(mail, leaseNow, leaseUntil, policy), { discard: true, concurrency: 4 })
    return due.length
  })

export class MailDispatcher extends Context.Tag("merchant-payments/MailDispatcher")<MailDispatcher, {}>() {}

/** Every `interval` (default 5 s), on business time when a clock is given. */
export const layer = (options: {
  readonly interval?: Duration.DurationInput
  readonly clock?: Clock.Clock
  readonly policy?: MailPolicy
} = {}) =>
  Layer.scoped(
    MailDispatcher,
    Effect.as(
      forkBatchedSweep({
        name: "mail pass",
        pass: (limit) => sendDueMail(limit, options.policy),
        batch: 20,
        interval: options.interval ?? "5 seconds",
        clock: options.clock
      }),
      MailDispatcher.of({})
    )
  )

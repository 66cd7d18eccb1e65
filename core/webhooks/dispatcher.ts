import type * as Clock from "effect/Clock"
import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as Deferred from "effect/Deferred"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as FiberRef from "effect/FiberRef"
import * as Layer from "effect/Layer"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import * as Schedule from "effect/Schedule"
import { Instant, now, plusSeconds, secondsBetween, toSeconds } from "../shared/instant.js"
import { webhookAttempts, webhookDeliveryDelay, webhookInFlight } from "../shared/metrics.js"
import { realNow } from "../shared/real-clock.js"
import { Ids } from "../signing/random-ids.js"
import { attemptRequest, type SigningInputs, signingInputs, signingInputsOf } from "./attempt-request.js"
import type { AttemptReport, DeliveryLane, WebhookDelivery } from "./delivery.js"
import { deliveryTarget } from "./delivery-target.js"
import type { StorageError } from "../shared/storage-error.js"
import { type TargetOutcome, WebhookOutbox } from "./webhook-outbox.js"
import { WebhookSender } from "./webhook-sender.js"

export interface DispatchPolicy {
  /** Waits before the 2nd, 3rd... attempt; attempts in total = 1 + its length (spec 6.1: 3). */
  readonly retryDelaysMillis: ReadonlyArray<number>
  /** How long a worker may hold a claimed delivery: beyond the send timeout, so a live send keeps it. */
  readonly leaseSeconds: number
  /** Attempts this host sends at once in the fast lane, every target together but the slow ones. */
  readonly concurrency: number
  /** Attempts this host sends at once in the slow lane: to targets whose last attempt was slow. */
  readonly slowLaneConcurrency: number
  /**
   * Attempts in flight to one target (a URL's origin) across every host of the store: a receiver
   * that never answers holds this many senders until their timeout, and the rest go to others.
   */
  readonly perTarget: number
  /**
   * The share, in percent, of each lane's slots on this host that one merchant's attempts may hold
   * (at least one slot): however many receivers a merchant has hanging, the rest of the lane sends
   * the other merchants' events.
   */
  readonly merchantSharePercent: number
  /** An attempt that held its sender this long, or timed out, moves its target to the slow lane. */
  readonly slowAfterMillis: number
  /**
   * A merchant's target that has failed every attempt for this long (business time) is paused: its
   * events wait, unsent, until the merchant recovers. Undefined: never paused (the contract's default).
   */
  readonly pauseAfterSeconds?: number
}

export const defaultDispatchPolicy: DispatchPolicy = {
  retryDelaysMillis: [60_000, 300_000],
  leaseSeconds: 120,
  concurrency: 32,
  slowLaneConcurrency: 8,
  perTarget: 4,
  merchantSharePercent: 25,
  slowAfterMillis: 5_000
}

/**
 * How many of a lane's slots a pass woken by finished sends waits to see free before it claims: half
 * the lane, at least one. Each claim is a transaction (a durable commit on SQLite) that ranks every
 * waiting target, and with an eighth the host ran one claim for every four deliveries; half keeps
 * the lane at least half full while costing a claim per lane/2 sends. The poll claims any free
 * slot, so a lane of hung sends still fills its last places within a poll interval.
 */
export const claimBatch = (policy: DispatchPolicy, lane: DeliveryLane): number => Math.max(1, Math.floor(laneSlots(policy, lane) / 2))

/** A lane's slots on this host. */
export const laneSlots = (policy: DispatchPolicy, lane: DeliveryLane): number =>
  lane === "fast" ? policy.concurrency : policy.slowLaneConcurrency

/** How many of a lane's slots on this host one merchant may hold: its share, and never none. */
export const merchantShare = (policy: DispatchPolicy, lane: DeliveryLane): number =>
  Math.max(1, Math.floor((laneSlots(policy, lane) * policy.merchantSharePercent) / 100))

/**
 * Half the send timeout: a receiver that takes that long to answer (or never does) holds a sender
 * for most of the timeout, and its events move to the slow lane until an attempt to it is quick.
 */
export const slowAfterMillisFor = (timeoutMillis: number): number => Math.max(1, Math.floor(timeoutMillis / 2))

/**
 * A lease must outlast the send it covers, or another host could claim the row mid-send and deliver
 * it twice: the send timeout plus a minute of margin, and never under two minutes.
 */
export const leaseSecondsFor = (timeoutMillis: number): number => Math.max(120, Math.ceil(timeoutMillis / 1000) + 60)

const plusMillis = (instant: Instant, millis: number): Instant => Instant(instant + BigInt(Math.trunc(millis)) * 1000n)

/** What the next state is after an attempt: delivered on 2xx, else retried until attempts run out. */
export const nextAfter = (
  attemptNumber: number,
  succeeded: boolean,
  at: Instant,
  policy: DispatchPolicy
): AttemptReport["next"] => {
  if (succeeded) return { status: "delivered" }
  const delay = policy.retryDelaysMillis[attemptNumber - 1]
  return delay === undefined ? { status: "failed" } : { status: "pending", nextAttemptAt: plusMillis(at, delay) }
}

/**
 * Store calls of a claimed attempt are tried again, each second, for as long as its lease lasts: a
 * store that went away for a moment must not leave the lease (and one of its target's places) held
 * until it lapses.
 */
const whileLeased = (policy: DispatchPolicy) => <A, E, R>(self: Effect.Effect<A, E, R>): Effect.Effect<A, E, R> =>
  Effect.retry(self, Schedule.spaced("1 second").pipe(Schedule.intersect(Schedule.recurs(policy.leaseSeconds))))

/** A finished send's report, and how its target fared, as the recorder takes them. */
interface Finished {
  readonly report: AttemptReport
  readonly outcome: TargetOutcome
  /** Whether the store took the report (the worker still held the lease), and whether the note paused its target. */
  readonly noted: Deferred.Deferred<{ readonly recorded: boolean; readonly paused: boolean }, StorageError>
}

/** What one recording may carry: every slot of both lanes of a host with room to spare. */
export const RECORD_BATCH = 64

/**
 * Records finished sends in batches: whatever finished while the last batch was written is written
 * next, in one call (a handful of statements and, on SQLite, one durable commit, instead of a
 * transaction per send). A write once begun is not cut off by a stop; a store that stays away is
 * tried again while the leases last, and a host that stops meanwhile leaves them to lapse (the
 * events are sent again). The target notes follow, as advice: a failure to note them is logged, and
 * the next attempt notes them again. Whatever ends a batch, each of its sends is answered, so a
 * failure (a defect too) fails those sends alone and the recorder goes on with the next batch.
 */
const makeRecorder = (policy: DispatchPolicy) =>
  Effect.gen(function*() {
    const outbox = yield* WebhookOutbox
    const finished = yield* Queue.unbounded<Finished>()
    const record = (batch: ReadonlyArray<Finished>) =>
      Effect.gen(function*() {
        const recorded = yield* Effect.uninterruptible(outbox.recordAttempts(batch.map((entry) => entry.report))).pipe(whileLeased(policy))
        const noted = batch.filter((_, index) => recorded[index] === true)
        const paused = yield* outbox.noteTargetOutcomes(noted.map((entry) => entry.outcome)).pipe(
          Effect.catchAll((cause) => Effect.as(Effect.logWarning("could not note how webhook targets are faring", cause), noted.map(() => false)))
        )
        const pausedIds = new Set(noted.filter((_, index) => paused[index] === true).map((entry) => entry.report.deliveryId))
        for (const [index, entry] of batch.entries()) {
          yield* Deferred.succeed(entry.noted, { recorded: recorded[index] === true, paused: pausedIds.has(entry.report.deliveryId) })
        }
      }).pipe(Effect.catchAllCause((cause) => Effect.forEach(batch, (entry) => Deferred.failCause(entry.noted, cause), { discard: true })))
    yield* Effect.forkScoped(Effect.forever(Effect.flatMap(Queue.takeBetween(finished, 1, RECORD_BATCH), (batch) => record(Chunk.toReadonlyArray(batch)))))
    /** Hands the recorder a finished send and waits until it is recorded. */
    return (report: AttemptReport, outcome: TargetOutcome) =>
      Effect.flatMap(Deferred.make<{ readonly recorded: boolean; readonly paused: boolean }, StorageError>(), (noted) =>
        Effect.zipRight(Queue.offer(finished, { report, outcome, noted }), Deferred.await(noted)))
  })

type Recorder = Effect.Effect.Success<ReturnType<typeof makeRecorder>>

const attempt = (
  worker: string,
  delivery: WebhookDelivery,
  policy: DispatchPolicy,
  lane: DeliveryLane,
  recorder: Recorder,
  read: SigningInputs | undefined
) =>
  Effect.gen(function*() {
    const attemptNumber = delivery.attempts + 1
    if (delivery.nextAttemptAt !== null) {
      yield* Metric.update(Metric.tagged(webhookDeliveryDelay, "lane", lane), Math.max(0, secondsBetween(delivery.nextAttemptAt, yield* now)))
    }
    // Standard Webhooks' timestamp is the receiver's replay window, so it is wall-clock time.
    const inputs = read ?? (yield* signingInputs(delivery).pipe(whileLeased(policy)))
    const request = yield* attemptRequest(delivery, toSeconds(yield* realNow), inputs)
    const result = request === undefined
      ? { _tag: "Failed" as const, error: "no credentials to sign with for this merchant and environment", durationMs: 0 }
      : yield* (yield* WebhookSender).send({ url: delivery.url, ...request })
    if (result._tag === "Responded") yield* Effect.annotateCurrentSpan("http.response.status_code", result.statusCode)
    const at = yield* now
    const succeeded = result._tag === "Responded" && result.statusCode >= 200 && result.statusCode < 300
    const permanent = result._tag === "Failed" && result.permanent === true
    const error = result._tag === "Failed" ? result.error : succeeded ? null : `HTTP ${result.statusCode}`
    const next = permanent ? { status: "failed" as const } : nextAfter(attemptNumber, succeeded, at, policy)
    yield* Metric.increment(Metric.tagged(webhookAttempts, "outcome", succeeded ? "delivered" : "failed"))
    // The send happened: its outcome is recorded even if the store was away for a while.
    const { paused } = yield* recorder(
      {
        deliveryId: delivery.id,
        worker,
        at,
        statusCode: result._tag === "Responded" ? result.statusCode : null,
        error,
        durationMs: Math.round(result.durationMs),
        next
      },
      { deliveryId: delivery.id, at, succeeded, slow: result.durationMs >= policy.slowAfterMillis, pauseAfterSeconds: policy.pauseAfterSeconds }
    )
    if (error !== null) yield* logFailedAttempt(delivery, attemptNumber, error, next.status === "pending")
    if (paused) {
      yield* Effect.logWarning(
        `webhook target paused: every attempt failed for ${policy.pauseAfterSeconds} s; its events wait until the merchant recovers`,
        { target: deliveryTarget(delivery.url) }
      ).pipe(Effect.annotateLogs({ merchant_id: String(delivery.merchantId), environment: delivery.environment }))
    }
  })

/** An operator's view of a failed attempt: which event, where, why, and whether it will be retried. */
const logFailedAttempt = (delivery: WebhookDelivery, attemptNumber: number, reason: string, retrying: boolean) =>
  Effect.logWarning(
    `webhook attempt ${attemptNumber} failed: ${reason}${retrying ? "" : " (no more attempts)"}`,
    { attempt: attemptNumber, reason, retrying, target: deliveryTarget(delivery.url) }
  ).pipe(Effect.annotateLogs({ event_id: delivery.id, merchant_id: String(delivery.merchantId) }))

/**
 * Claims what is due in `lane`, at most `free` deliveries, fairly across targets and merchants. Due
 * dates are judged on business time (`Clock`), leases on the wall clock (`RealClock`).
 */
export const claimDue = (worker: string, policy: DispatchPolicy, lane: DeliveryLane, free: number) =>
  Effect.gen(function*() {
    const at = yield* now
    const leaseNow = yield* realNow
    return yield* (yield* WebhookOutbox).claimDue({
      worker,
      now: at,
      leaseNow,
      leaseUntil: plusSeconds(leaseNow, policy.leaseSeconds),
      limit: free,
      lane,
      perTarget: policy.perTarget,
      perMerchant: merchantShare(policy, lane)
    })
  })

/** The dispatcher running in this host; several hosts on one store never send one attempt twice. */
export class WebhookDispatcher extends Context.Tag("merchant-payments/WebhookDispatcher")<WebhookDispatcher, {
  readonly worker: string
}>() {}

/**
 * Polls every `pollInterval` (at once again while claims fill the free senders), lane by lane. Each
 * attempt runs on its own fiber, so a pass never waits for a slow send: a hung receiver holds its own
 * senders (at most `perTarget`, and its merchant at most its share of the lane) until their timeout,
 * then waits in the slow lane, while the others keep delivering. Business time (due dates,
 * retry delays) follows `clock` when given, so a manual clock drives retries too; leases stay on the
 * wall clock.
 */
export const layer = (options: {
  readonly policy?: DispatchPolicy
  readonly pollInterval?: Duration.DurationInput
  readonly clock?: Clock.Clock
}) =>
  Layer.scoped(
    WebhookDispatcher,
    Effect.gen(function*() {
      const worker = `worker-${yield* (yield* Ids).token(9)}`
      const policy = options.policy ?? defaultDispatchPolicy
      const scope = yield* Effect.scope
      // A finished send frees a place (for its target too): look again at once, not at the next poll,
      // or a busy target would get only perTarget attempts per poll interval.
      const wake = yield* Queue.sliding<void>(1)
      const sending: Record<DeliveryLane, number> = { fast: 0, slow: 0 }
      // Which lanes had a send finish since their last claim: a finished fast send is no reason to
      // ask the store for the slow lane's work (the poll does that).
      const freed: Record<DeliveryLane, boolean> = { fast: false, slow: false }
      // Moved by deltas, not set: several kits in one process share the registry, and their sends add up.
      const inFlight = (lane: DeliveryLane, delta: number) => Metric.modify(Metric.tagged(webhookInFlight, "lane", lane), delta)
      // Each attempt is a trace of its own (the sender passes it on as `traceparent`); the polls between
      // them are not traced, or an idle host would send a trace of one claim query every second.
      const tracing = yield* FiberRef.get(FiberRef.currentTracerEnabled)
      // Business time for due dates and retries; the recorder's retries follow it as the sends' did.
      const onBusinessTime = <A, E, R>(effect: Effect.Effect<A, E, R>) => options.clock === undefined ? effect : Effect.withClock(effect, options.clock)
      const recorder = yield* onBusinessTime(makeRecorder(policy))
      const send = (delivery: WebhookDelivery, lane: DeliveryLane, inputs: SigningInputs | undefined) =>
        attempt(worker, delivery, policy, lane, recorder, inputs).pipe(
          Effect.withSpan("webhook attempt", {
            kind: "producer",
            root: true,
            captureStackTrace: false,
            attributes: {
              "webhook.event_id": delivery.id,
              "webhook.event": delivery.event,
              "webhook.attempt": delivery.attempts + 1,
              "webhook.target": deliveryTarget(delivery.url),
              "webhook.lane": lane
            }
          }),
          Effect.catchAllCause((cause) => Effect.logWarning("webhook attempt could not be recorded; its lease lapses and it is sent again", cause)),
          Effect.ensuring(Effect.zipRight(
            Effect.suspend(() => {
              sending[lane]--
              freed[lane] = true
              return inFlight(lane, -1)
            }),
            Queue.offer(wake, undefined)
          )),
          Effect.withTracerEnabled(tracing)
        )
      // Each lane fills its own free slots: a slow lane full of hanging receivers never takes the fast lane's.
      // A pass woken by finished sends claims a lane only once a batch of its slots is free (the poll
      // claims whatever is free): each claim is a transaction that ranks the waiting targets, and one
      // per finished send would cost the store more than the sends do.
      const passIn = (lane: DeliveryLane, woken: boolean) =>
        Effect.gen(function*() {
          const free = laneSlots(policy, lane) - sending[lane]
          if (free <= 0) return false
          if (woken && (!freed[lane] || free < claimBatch(policy, lane))) return false
          freed[lane] = false
          const claimed = yield* claimDue(worker, policy, lane, free)
          sending[lane] += claimed.length
          yield* inFlight(lane, claimed.length)
          // The claim's signing inputs in one read, not one per attempt; should it fail, each attempt
          // reads its own, retried while its lease lasts.
          const inputs = claimed.length === 0 ? undefined : Option.getOrUndefined(yield* Effect.option(signingInputsOf(claimed)))
          for (const delivery of claimed) yield* Effect.forkIn(send(delivery, lane, inputs?.(delivery)), scope)
          return claimed.length === free
        }).pipe(
          Effect.repeat({ while: (full) => full }),
          Effect.catchAllCause((cause) => Effect.logWarning("webhook dispatch pass failed; retrying", cause))
        )
      const pass = (woken: boolean) => Effect.zipRight(passIn("fast", woken), passIn("slow", woken))
      const pollInterval = options.pollInterval ?? "1 second"
      const next = Effect.race(Effect.as(Queue.take(wake), true), Effect.as(Effect.sleep(pollInterval), false))
      const loop = Effect.iterate(false, { while: () => true, body: (woken) => Effect.zipRight(pass(woken), next) }).pipe(
        Effect.withTracerEnabled(false)
      )
      yield* Effect.forkScoped(onBusinessTime(loop))
      return WebhookDispatcher.of({ worker })
    })
  )

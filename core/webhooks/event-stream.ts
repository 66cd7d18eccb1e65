import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schedule from "effect/Schedule"
import * as Stream from "effect/Stream"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { toSeconds } from "../shared/instant.js"
import { Readiness } from "../shared/readiness.js"
import { realNow } from "../shared/real-clock.js"
import { ValidationFailed } from "../shared/validation.js"
import { attemptRequest, signingInputsOf } from "./attempt-request.js"
import { EventLog, type LoggedEvent } from "./event-log.js"
import { EventStreamSlots } from "./event-stream-slots.js"
import { eventPatternRefusal, patternMatches } from "./event-types.js"

/** What a listener is sent: an event with the request a delivery of it would make, or a sign of life. */
export type StreamItem =
  | {
    readonly _tag: "Event"
    readonly event: LoggedEvent
    /** The body and headers of a real delivery, signed as the stream sends it. */
    readonly request: { readonly body: string; readonly headers: Readonly<Record<string, string>> }
  }
  | { readonly _tag: "Heartbeat" }

/** Events read from the log per poll: a long replay goes out in pieces, each as soon as it is read. */
const READ_BATCH = 100

/**
 * The `types` filter: comma-separated patterns as a webhook endpoint subscribes with (`payment.*`,
 * `invoice.paid`, `*`); absent means every event. Every bad pattern is named at once.
 */
export const streamPatterns = (text: string | undefined, field = "types") => {
  if (text === undefined) return Effect.succeed(["*"] as ReadonlyArray<string>)
  const patterns = text.split(",").map((pattern) => pattern.trim())
  const refusals = patterns.flatMap((pattern) => {
    const refusal = pattern === "" ? "An empty pattern names no event: remove the extra comma." : eventPatternRefusal(pattern)
    return refusal === undefined ? [] : [refusal]
  })
  return refusals.length === 0 ? Effect.succeed(patterns as ReadonlyArray<string>) : Effect.fail(new ValidationFailed({ code: "VALIDATION_FAILED", errors: { [field]: refusals } }))
}

/** `Last-Event-ID`: the sequence of the last event the listener received; a whole number. */
export const resumeSequence = (header: string | undefined) =>
  header === undefined || header.trim() === ""
    ? Effect.succeed(undefined)
    : /^\d{1,15}$/.test(header.trim())
    ? Effect.succeed(Number(header.trim()))
    : Effect.fail(ValidationFailed.field("Last-Event-ID", "The Last-Event-ID header must be the id of an event this stream sent: a whole number."))

/**
 * The caller's events as they are logged, for a developer's listener (issue 37): from after
 * `afterSequence` (the retained ones first, in order) or, without it, from now on; only those of
 * `patterns`. Each carries the request a delivery would make, signed as it is sent, so the
 * listener can hand it to a local receiver that checks signatures as in production. No target is
 * ever contacted. The stream takes one of the caller's slots (EventStreamLimitReached when none is
 * left) until it ends: when the listener goes, at its longest life, or when the host begins to shut
 * down; a store failure ends it too, and the listener resumes where it was.
 */
export const eventStream = (caller: MerchantScope, options: { readonly patterns: ReadonlyArray<string>; readonly afterSequence: number | undefined }) =>
  Effect.gen(function*() {
    const slots = yield* EventStreamSlots
    const log = yield* EventLog
    const readiness = yield* Readiness
    const { heartbeatMillis, maxLifeMillis, pollMillis } = slots.settings
    const merchantId = caller.merchant.id
    const environment = caller.environment
    const release = yield* slots.acquire(`${merchantId}|${environment}`)
    let cursor = options.afterSequence ?? (yield* Effect.onError(log.latestSequence(merchantId, environment), () => release))
    // A poll's events are signed with one read of their signing inputs.
    const signed = (events: ReadonlyArray<LoggedEvent>) =>
      Effect.gen(function*() {
        const inputs = yield* signingInputsOf(events)
        const at = toSeconds(yield* realNow)
        return yield* Effect.forEach(events, (event) =>
          Effect.map(attemptRequest(event, at, inputs(event)), (request) => (request === undefined ? [] : [{ _tag: "Event", event, request } as const])))
      })
    const poll = Effect.gen(function*() {
      if (yield* readiness.draining) return yield* Effect.fail(Option.none())
      const rows = yield* log.after({ merchantId, environment, afterSequence: cursor, limit: READ_BATCH })
      const items = yield* signed(rows.filter((row) => options.patterns.some((pattern) => patternMatches(pattern, row.type))))
      // Past every row read, sent or filtered out: the next poll starts after them.
      if (rows.length > 0) cursor = rows[rows.length - 1]!.sequence
      if (rows.length < READ_BATCH) yield* Effect.sleep(Duration.millis(pollMillis))
      return items.flat()
    }).pipe(Effect.catchTag("StorageError", (error) =>
      Effect.zipRight(Effect.logWarning(`event stream ended: the store failed (${error.message})`), Effect.fail(Option.none()))))
    const events = Stream.repeatEffectOption(poll).pipe(Stream.flattenIterables)
    const heartbeats = Stream.repeatEffectWithSchedule(Effect.succeed<StreamItem>({ _tag: "Heartbeat" }), Schedule.spaced(Duration.millis(heartbeatMillis)))
    return Stream.merge(events, heartbeats, { haltStrategy: "left" }).pipe(
      Stream.interruptAfter(Duration.millis(maxLifeMillis)),
      Stream.ensuring(release)
    )
  })

import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import * as Queue from "effect/Queue"
import { Ids } from "../signing/random-ids.js"
import { redactBody } from "./request-log-redaction.js"
import { RequestLogRepository, type NewRequestLog } from "./request-log.js"

/** A call as the edge saw it: bodies still whole, redacted here, off the answer's path. */
export interface AnsweredCall extends Omit<NewRequestLog, "id" | "requestBody" | "responseBody"> {
  readonly requestBody: string | null
  readonly responseBody: string | null
}

/**
 * Keeps merchant API calls without making their answers wait or fail: `keep` only queues the call;
 * a background fiber redacts and writes whatever has queued, in one statement per batch. Once a call
 * is in, the writer waits for company, up to GATHER_MILLIS or until a whole batch is queued, before
 * it writes (on SQLite each write is a durable commit on the one connection, whose fsync runs on the
 * event loop and stalls every request meanwhile; and through the driver a statement costs more than
 * its rows: a profile of calls one at a time put a write per call at two fifths of each call's CPU). A failed
 * write is warned and its batch dropped; a full queue drops new calls the same way: the log is a
 * help, never a reason to refuse.
 */
export class RequestLogWriter extends Context.Tag("merchant-payments/RequestLogWriter")<RequestLogWriter, {
  readonly keep: (call: AnsweredCall) => Effect.Effect<void>
}>() {}

export const DEFAULT_QUEUE_CAPACITY = 10_000
/**
 * A batch is one statement and one commit. Under load a whole batch is written as soon as it has
 * queued, so commits stay few (a durable commit costs 0.5 ms at the median and 8 ms or more at the
 * tail, on the event loop); 500 rows of 15 columns stay far below either store's bound on parameters.
 */
export const DEFAULT_BATCH_SIZE = 500
/**
 * How long a first queued call waits for others when traffic is light: about a second, still soon
 * for a reader of the log, and a lightly used host commits its log at most once a second.
 */
export const GATHER_MILLIS = 1_000

export const layer = (options: { readonly capacity?: number; readonly batchSize?: number; readonly gatherMillis?: number } = {}) =>
  Layer.scoped(
    RequestLogWriter,
    Effect.gen(function*() {
      const repository = yield* RequestLogRepository
      const ids = yield* Ids
      const queue = yield* Queue.dropping<AnsweredCall>(options.capacity ?? DEFAULT_QUEUE_CAPACITY)
      const entry = (call: AnsweredCall) =>
        Effect.map(ids.uuid, (uuid): NewRequestLog => ({
          ...call,
          id: `rl_${uuid.replaceAll("-", "")}`,
          requestBody: redactBody(call.requestBody),
          responseBody: redactBody(call.responseBody)
        }))
      const write = (calls: ReadonlyArray<AnsweredCall>) =>
        Effect.forEach(calls, entry).pipe(
          Effect.flatMap(repository.record),
          // A batch begun is finished even while the host shuts down.
          Effect.uninterruptible,
          Effect.catchAllCause((cause) => Effect.logWarning(`request log: ${calls.length} entries not written`, cause))
        )
      const batchSize = options.batchSize ?? DEFAULT_BATCH_SIZE
      const gatherMillis = options.gatherMillis ?? GATHER_MILLIS
      // Set while the writer gathers: `keep` calls it after each queued call, to end the wait early.
      let queued: (() => void) | undefined
      /** Waits until `wanted` more calls have queued or `gatherMillis` have passed, on a real timer: a manual or test clock must not hold the log back. */
      const gather = (wanted: number) =>
        Effect.async<void>((resume) => {
          const done = () => {
            clearTimeout(timer)
            queued = undefined
            resume(Effect.void)
          }
          const timer = setTimeout(done, gatherMillis)
          queued = () => {
            if (Option.getOrElse(queue.unsafeSize(), () => 0) >= wanted) done()
          }
          queued()
          return Effect.sync(() => {
            clearTimeout(timer)
            queued = undefined
          })
        })
      // Added before the writer fiber, so it runs after that fiber is stopped: what is queued at
      // shutdown is still written, a batch at a time (one INSERT has a bound on its parameters).
      yield* Effect.addFinalizer(() =>
        Effect.flatMap(Queue.takeAll(queue), (calls) => Effect.forEach(Chunk.chunksOf(calls, batchSize), (batch) => write(Chunk.toReadonlyArray(batch)), { discard: true }))
      )
      // Calls once taken are written even when the host stops meanwhile: the write is
      // uninterruptible; the gathering is cut short by a stop, and what it gathered is written at once.
      const batch = Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(restore(Queue.takeBetween(queue, 1, batchSize)), (first) =>
          first.length >= batchSize
            ? write(Chunk.toReadonlyArray(first))
            : Effect.zipRight(Effect.exit(restore(gather(batchSize - first.length))), Effect.flatMap(Queue.takeUpTo(queue, batchSize - first.length), (rest) =>
              write(Chunk.toReadonlyArray(Chunk.appendAll(first, rest)))))))
      yield* Effect.forkScoped(Effect.forever(batch))
      return RequestLogWriter.of({
        keep: (call) =>
          Effect.flatMap(Queue.offer(queue, call), (kept) => {
            if (!kept) return Effect.logWarning("request log: queue full; a call was not kept")
            queued?.()
            return Effect.void
          })
      })
    })
  )

import * as Chunk from "effect/Chunk"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
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
 * is in, the writer waits GATHER_MILLIS for company before it writes (on SQLite each write is a
 * durable commit on the one connection, and through the driver a statement costs more than its rows:
 * a profile of calls one at a time put a write per call at two fifths of each call's CPU). A failed
 * write is warned and its batch dropped; a full queue drops new calls the same way: the log is a
 * help, never a reason to refuse.
 */
export class RequestLogWriter extends Context.Tag("merchant-payments/RequestLogWriter")<RequestLogWriter, {
  readonly keep: (call: AnsweredCall) => Effect.Effect<void>
}>() {}

export const DEFAULT_QUEUE_CAPACITY = 10_000
export const DEFAULT_BATCH_SIZE = 200
/** How long a first queued call waits for others: far below what a reader of the log notices. */
export const GATHER_MILLIS = 50

/** A real timer: a manual or test clock must not hold the log back. */
const gather = Effect.async<void>((resume) => {
  const timer = setTimeout(() => resume(Effect.void), GATHER_MILLIS)
  return Effect.sync(() => clearTimeout(timer))
})

export const layer = (options: { readonly capacity?: number; readonly batchSize?: number } = {}) =>
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
      // Added before the writer fiber, so it runs after that fiber is stopped: what is queued at
      // shutdown is still written, a batch at a time (one INSERT has a bound on its parameters).
      yield* Effect.addFinalizer(() =>
        Effect.flatMap(Queue.takeAll(queue), (calls) => Effect.forEach(Chunk.chunksOf(calls, batchSize), (batch) => write(Chunk.toReadonlyArray(batch)), { discard: true }))
      )
      // Calls once taken are written even when the host stops meanwhile: the wait and the write are
      // uninterruptible (the wait is short), only the wait for a first call is not.
      const batch = Effect.uninterruptibleMask((restore) =>
        Effect.flatMap(restore(Queue.takeBetween(queue, 1, batchSize)), (first) =>
          first.length >= batchSize
            ? write(Chunk.toReadonlyArray(first))
            : Effect.zipRight(gather, Effect.flatMap(Queue.takeUpTo(queue, batchSize - first.length), (rest) =>
              write(Chunk.toReadonlyArray(Chunk.appendAll(first, rest)))))))
      yield* Effect.forkScoped(Effect.forever(batch))
      return RequestLogWriter.of({
        keep: (call) =>
          Effect.flatMap(Queue.offer(queue, call), (queued) => (queued ? Effect.void : Effect.logWarning("request log: queue full; a call was not kept")))
      })
    })
  )

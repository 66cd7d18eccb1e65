import { forkBatchedSweep } from "../shared/batched-sweep.js"
import type * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { now } from "../shared/instant.js"
import { finishPayment } from "./finish-payment.js"
import { PaymentRepository } from "./payment-repository.js"

/** The sweep's step for one payment: failed (reason expired), with its event. Sandbox triggers expire theirs with it too. */
export const expirePayment = (trxId: string) =>
  finishPayment(trxId, { outcome: "expired", gatewayId: null }).pipe(
    Effect.asVoid,
    // Paid, cancelled or expired by someone else in the meantime: nothing left to do.
    Effect.catchTag("PaymentAlreadyFinal", () => Effect.void)
  )

/** Pending payments whose checkout expired become failed (reason expired), each with its event. */
export const sweepExpired = (limit: number) =>
  Effect.gen(function*() {
    const expired = yield* (yield* PaymentRepository).listExpiredPending(yield* now, limit)
    yield* Effect.forEach(expired, (payment) => expirePayment(payment.trxId), { discard: true })
    return expired.length
  })

export class ExpirySweeper extends Context.Tag("merchant-payments/ExpirySweeper")<ExpirySweeper, {}>() {}

/**
 * Runs every `interval` (default 15 s, well inside the minute the contract allows), sweeping in
 * batches until none is left. Business time follows `clock` when given.
 */
export const layer = (options: { readonly interval?: Duration.DurationInput; readonly clock?: Clock.Clock } = {}) =>
  Layer.scoped(
    ExpirySweeper,
    Effect.as(
      forkBatchedSweep({ name: "expiry sweep", pass: sweepExpired, batch: 100, interval: options.interval ?? "15 seconds", clock: options.clock }),
      ExpirySweeper.of({})
    )
  )

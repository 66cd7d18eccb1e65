import { forkBatchedSweep } from "../shared/batched-sweep.js"
import type * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { GatewayId } from "../shared/ids.js"
import { Instant, MICROS_PER_SECOND, now } from "../shared/instant.js"
import { CheckoutAttempts, type DueSync } from "./checkout-attempts.js"
import type { Gateway } from "../gateways/gateway.js"
import { gatewayCallee } from "../gateways/gateway-config.js"
import { acceptReport, amountText, type ReportSource, type Verdict } from "./gateway-reports.js"
import { GatewayRepository } from "../gateways/gateway-repository.js"
import { PaymentRepository } from "./payment-repository.js"

/**
 * When to ask a silent gateway again after `count` asks: 1, 2, 4, 8 minutes, then every 15 until
 * the checkout expires. Quick enough that a lost notification costs a customer minutes, slow enough
 * that a thousand pending checkouts do not hammer a gateway.
 */
export const syncDelay = (count: number): bigint => MICROS_PER_SECOND * BigInt(Math.min(60 * 2 ** Math.min(count, 4), 900))

/** The first ask, a minute after the customer left for the gateway. */
export const firstSyncAt = (at: Instant): Instant => Instant(at + syncDelay(0))

/**
 * Asks the gateway how a payment stands and hands the answer to the one place that decides. A
 * gateway that cannot be asked (no statusSync, or it fails) leaves the payment as it was.
 */
export const syncPayment = (gateway: Gateway, trxId: string, source: ReportSource) =>
  Effect.gen(function*() {
    const payment = yield* (yield* PaymentRepository).findByTrxId(trxId)
    const attempt = yield* (yield* CheckoutAttempts).find(trxId, gateway.id)
    if (Option.isNone(payment) || Option.isNone(attempt)) return { _tag: "Ignored", reason: "not begun with this gateway" } satisfies Verdict
    const { plugin, config, ref } = yield* gatewayCallee(gateway)
    if (!plugin.capabilities.statusSync) {
      yield* Effect.logWarning(`unverified ${source} ignored: the ${plugin.id} plugin cannot be asked for the status`).pipe(
        Effect.annotateLogs({ trx_id: trxId, gateway: gateway.code }))
      return { _tag: "Ignored", reason: "unverified" } satisfies Verdict
    }
    const report = yield* plugin.syncStatus({
      trxId,
      amount: yield* amountText(payment.value.amount, payment.value.currency),
      currency: payment.value.currency,
      environment: payment.value.environment,
      gateway: ref,
      config,
      gatewayReference: attempt.value.gatewayReference
    })
    return yield* acceptReport(gateway, { trxId, ...report }, "sync")
  })

/** One due sync, if this host wins it: the claim moves its next ask, so other hosts skip it. */
const syncOne = (due: DueSync, at: Instant) =>
  Effect.gen(function*() {
    const attempts = yield* CheckoutAttempts
    const { attempt } = due
    // Ended, or expired (the expiry sweep fails it as before): nothing left to ask about.
    if (!due.paymentPending || due.paymentExpiresAt <= at) return yield* attempts.stopSyncs(attempt.trxId)
    const next = Instant(at + syncDelay(attempt.syncCount + 1))
    if (!(yield* attempts.claimSync(attempt.trxId, attempt.gatewayId, attempt.nextSyncAt ?? at, next))) return
    const gateway = yield* (yield* GatewayRepository).findById(GatewayId(attempt.gatewayId))
    if (Option.isNone(gateway)) return yield* attempts.stopSyncs(attempt.trxId)
    yield* syncPayment(gateway.value, attempt.trxId, "sync").pipe(
      Effect.catchAll((error) =>
        Effect.logWarning(`status sync failed; asking again later: ${error.message}`).pipe(
          Effect.annotateLogs({ trx_id: attempt.trxId, gateway: gateway.value.code })))
    )
  })

/** Pending payments whose gateway can be asked, asked in turn; the count of due rows read. */
export const sweepSyncs = (limit: number) =>
  Effect.gen(function*() {
    const at = yield* now
    const due = yield* (yield* CheckoutAttempts).listDueSyncs(at, limit)
    yield* Effect.forEach(due, (item) => syncOne(item, at), { discard: true, concurrency: 4 })
    return due.length
  })

export class StatusSyncSweeper extends Context.Tag("merchant-payments/StatusSyncSweeper")<StatusSyncSweeper, {}>() {}

/** Every `interval` (default 15 s), on business time when a clock is given. */
export const layer = (options: { readonly interval?: Duration.DurationInput; readonly clock?: Clock.Clock } = {}) =>
  Layer.scoped(
    StatusSyncSweeper,
    Effect.as(
      forkBatchedSweep({ name: "status sync sweep", pass: sweepSyncs, batch: 50, interval: options.interval ?? "15 seconds", clock: options.clock }),
      StatusSyncSweeper.of({})
    )
  )

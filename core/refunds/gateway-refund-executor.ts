import { forkBatchedSweep } from "../shared/batched-sweep.js"
import type * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import type * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { CheckoutAttempts } from "../payments/checkout-attempts.js"
import type { Gateway } from "../gateways/gateway.js"
import { gatewayCallee } from "../gateways/gateway-config.js"
import type { RefundReport } from "../gateways/gateway-plugin.js"
import { amountText } from "../payments/gateway-reports.js"
import { GatewayRepository } from "../gateways/gateway-repository.js"
import type { Payment } from "../payments/payment.js"
import { PaymentRepository } from "../payments/payment-repository.js"
import { Instant, MICROS_PER_SECOND, now } from "../shared/instant.js"
import { realNow } from "../shared/real-clock.js"
import { type GatewayRefund, type GatewayRefundProgress, GatewayRefunds } from "./gateway-refund.js"

/** Calls that failed (threw, timed out, answered nonsense) before a refund is marked failed for good. */
export const MAX_GATEWAY_REFUND_ATTEMPTS = 10

const MINUTE = 60n * MICROS_PER_SECOND
const RETRY_MINUTES: ReadonlyArray<bigint> = [1n, 5n, 30n, 120n, 360n]

/**
 * The wait after the n-th call: 1 min, 5 min, 30 min, 2 h, 6 h, then every 12 h. Soon enough that a
 * gateway's brief outage costs the customer minutes, sparse enough that a long one is not hammered.
 */
export const retryDelay = (attempts: number): bigint => (RETRY_MINUTES[attempts - 1] ?? 720n) * MINUTE

/**
 * How long a claimed row is this host's: twice the plugin call timeout, which cuts every call off,
 * so no other host calls the gateway while this one still may; 5 minutes when the timeout is not given.
 */
export const leaseMicros = (callTimeoutMillis?: number): bigint =>
  callTimeoutMillis === undefined ? 5n * MINUTE : BigInt(Math.ceil(callTimeoutMillis)) * 2n * 1000n

/** Why a call gave no report: the plugin's failure, or a record it needs that is missing. */
interface CallFailure {
  readonly reason: string
  readonly message: string
}

/** The plugin's answer, or why there was none. Store failures stay in the error channel: no attempt was made. */
const askGateway = (row: GatewayRefund, payment: Payment, gateway: Gateway) =>
  Effect.gen(function*() {
    const callee = yield* Effect.either(gatewayCallee(gateway))
    if (Either.isLeft(callee)) {
      const error = callee.left
      return Either.left<CallFailure>(error._tag === "UnknownGatewayPlugin"
        ? { reason: "unknown_plugin", message: `no plugin ${JSON.stringify(error.plugin)} is registered` }
        : error)
    }
    const { plugin, config, ref } = callee.right
    const attempt = yield* (yield* CheckoutAttempts).find(row.paymentTrxId, row.gatewayId)
    const report = yield* Effect.either(plugin.refund({
      trxId: row.paymentTrxId,
      refundTrxId: row.refundTrxId,
      gatewayReference: Option.match(attempt, { onNone: () => null, onSome: (found) => found.gatewayReference }),
      amount: yield* amountText(row.amount, row.currency),
      currency: row.currency,
      idempotencyKey: row.idempotencyKey,
      environment: payment.environment,
      gateway: ref,
      config
    }))
    return Either.mapLeft(report, (error): CallFailure => error)
  })

/** The gateway's word is final unless pending; no word is retried until the attempts run out. */
export const progressAfter = (row: GatewayRefund, answer: Either.Either<RefundReport, CallFailure>, at: Instant): GatewayRefundProgress => {
  const attempts = row.attempts + 1
  const retryAt = Instant(at + retryDelay(attempts))
  if (Either.isRight(answer)) {
    const report = answer.right
    return {
      status: report.status,
      attempts,
      nextAttemptAt: report.status === "pending" ? retryAt : null,
      gatewayReference: report.gatewayRefundReference ?? row.gatewayReference,
      message: report.message ?? null,
      at
    }
  }
  const gaveUp = attempts >= MAX_GATEWAY_REFUND_ATTEMPTS
  return {
    status: gaveUp ? "failed" : "pending",
    attempts,
    nextAttemptAt: gaveUp ? null : retryAt,
    gatewayReference: row.gatewayReference,
    message: gaveUp ? `gave up after ${attempts} attempts: ${answer.left.message}` : answer.left.message,
    at
  }
}

/** What an operator reads: which refund, which gateway, what became of it. Never the config, never the message. */
const logOutcome = (row: GatewayRefund, gatewayCode: string, progress: GatewayRefundProgress, failure: string | undefined) => {
  const fields = {
    refund_trx_id: row.refundTrxId,
    gateway: gatewayCode,
    status: progress.status,
    attempts: progress.attempts,
    ...(failure !== undefined ? { failure } : {})
  }
  const text = failure === undefined
    ? `gateway refund ${progress.status}`
    : progress.status === "failed" ? "gateway refund failed: no more attempts" : "gateway refund call failed; retrying later"
  return (failure === undefined && progress.status !== "failed" ? Effect.logInfo(text) : Effect.logWarning(text)).pipe(Effect.annotateLogs(fields))
}

/** One due row, if this host wins its claim: one call to the plugin, its outcome recorded. */
const executeOne = (row: GatewayRefund, leaseNow: Instant, leaseUntil: Instant) =>
  Effect.gen(function*() {
    const store = yield* GatewayRefunds
    if (row.nextAttemptAt === null || !(yield* store.claim(row.refundTrxId, row.nextAttemptAt, leaseNow, leaseUntil))) return
    const payment = yield* (yield* PaymentRepository).findByTrxId(row.paymentTrxId)
    const gateway = yield* (yield* GatewayRepository).findById(row.gatewayId)
    const answer = Option.isSome(payment) && Option.isSome(gateway)
      ? yield* askGateway(row, payment.value, gateway.value)
      : Either.left<CallFailure>({ reason: "missing_record", message: "the payment or its gateway record is missing" })
    const progress = progressAfter(row, answer, yield* now)
    yield* store.record(row.refundTrxId, progress)
    yield* logOutcome(row, Option.match(gateway, { onNone: () => `#${row.gatewayId}`, onSome: (found) => found.code }), progress, Either.isLeft(answer) ? answer.left.reason : undefined)
  }).pipe(
    // The row keeps its lease and is taken up again when it lapses, with the same key.
    Effect.catchAllCause((cause) =>
      Effect.logWarning("gateway refund could not be executed; it is tried again later", cause).pipe(
        Effect.annotateLogs({ refund_trx_id: row.refundTrxId })))
  )

/** One pass: claims what is due and executes it; the count of due rows read. */
export const executeDueRefunds = (limit: number, options: { readonly callTimeoutMillis?: number } = {}) =>
  Effect.gen(function*() {
    // Due dates on business time; the lease on the wall clock, whatever a manual clock says.
    const leaseNow = yield* realNow
    const due = yield* (yield* GatewayRefunds).listDue(yield* now, leaseNow, limit)
    const leaseUntil = Instant(leaseNow + leaseMicros(options.callTimeoutMillis))
    yield* Effect.forEach(due, (row) => executeOne(row, leaseNow, leaseUntil), { discard: true, concurrency: 4 })
    return due.length
  })

export class GatewayRefundExecutor extends Context.Tag("merchant-payments/GatewayRefundExecutor")<GatewayRefundExecutor, {}>() {}

/** Every `interval` (default 15 s), on business time when a clock is given. */
export const layer = (options: {
  readonly interval?: Duration.DurationInput
  readonly clock?: Clock.Clock
  /** The plugin call timeout the registry was given, which sizes the lease. */
  readonly callTimeoutMillis?: number
} = {}) =>
  Layer.scoped(
    GatewayRefundExecutor,
    Effect.as(
      forkBatchedSweep({
        name: "gateway refund pass",
        pass: (limit) => executeDueRefunds(limit, options),
        batch: 20,
        interval: options.interval ?? "15 seconds",
        clock: options.clock
      }),
      GatewayRefundExecutor.of({})
    )
  )

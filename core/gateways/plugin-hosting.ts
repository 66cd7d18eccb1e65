import * as Cause from "effect/Cause"
import * as Clock from "effect/Clock"
import * as Duration from "effect/Duration"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Metric from "effect/Metric"
import * as ParseResult from "effect/ParseResult"
import * as Schema from "effect/Schema"
import { gatewayCalls } from "../shared/metrics.js"
import {
  GatewayConfigRejected,
  type GatewayPluginDefinition,
  type HostedPlugin,
  type PluginCall,
  PluginCallFailed
} from "./gateway-plugin.js"
import {
  CheckoutStartSchema,
  DisputeEvidenceReportSchema,
  NotificationReportSchema,
  PayoutReportSchema,
  RefundReportSchema,
  ReturnReportSchema,
  SavedMethodChargeReportSchema,
  SavedMethodReportSchema,
  SettlementReportSchema,
  SetupReportSchema,
  SyncReportSchema
} from "./plugin-answers.js"
import { capabilitiesOf } from "./plugin-shape.js"
import type { SettlementContext } from "./settlement-report.js"
import { currentTraceparent, withSpanWhenTraced } from "../shared/trace-context.js"

export const DEFAULT_PLUGIN_CALL_TIMEOUT_MILLIS = 10_000

export interface HostingOptions {
  /** How long one plugin call may take before the kit stops waiting (default 10 s). */
  readonly callTimeoutMillis?: number
}

/**
 * Timeouts and durations run on real time even when business time is a manual clock: a hanging
 * gateway must be cut off whatever a test or demo has done to the calendar.
 */
const realClock = Clock.make()

const messageOf = (cause: unknown): string =>
  cause instanceof Error ? cause.message : typeof cause === "string" ? cause : "the plugin failed without a message"

/** A plugin answer, whatever its style, as an Effect: a value, a Promise, or an Effect. */
const answerOf = (plugin: string, call: PluginCall, invoke: () => unknown, rejected: (message: string) => unknown) =>
  Effect.suspend((): Effect.Effect<unknown, PluginCallFailed> => {
    let answer: unknown
    try {
      answer = invoke()
    } catch (error) {
      return Effect.fail(new PluginCallFailed({ plugin, call, reason: "threw", message: messageOf(error) }))
    }
    if (Effect.isEffect(answer)) {
      return (answer as Effect.Effect<unknown, unknown>).pipe(
        Effect.catchAllCause((cause) => {
          const failure = Cause.failureOption(cause)
          if (failure._tag === "Some") {
            const error = failure.value as { readonly _tag?: unknown; readonly message?: unknown }
            if (error._tag === "GatewayReturnRejected") return Effect.succeed(rejected(messageOf(error)))
            return Effect.fail(new PluginCallFailed({ plugin, call, reason: "failed", message: messageOf(error) }))
          }
          return Effect.fail(new PluginCallFailed({ plugin, call, reason: "threw", message: messageOf(Cause.squash(cause)) }))
        })
      )
    }
    if (typeof (answer as PromiseLike<unknown> | null)?.then === "function") {
      return Effect.tryPromise({
        try: () => Promise.resolve(answer),
        catch: (error) => new PluginCallFailed({ plugin, call, reason: "threw", message: messageOf(error) })
      })
    }
    return Effect.succeed(answer)
  })

interface CallFacts {
  readonly gateway?: string
  readonly trx?: string
  readonly payout?: string
}

/** The call's context as the plugin sees it: with the trace context of its span, when there is one. */
const traced = <C extends object>(context: C, traceparent: string | undefined): C =>
  traceparent === undefined ? context : { ...context, traceparent }

/**
 * One guarded call, in its own span: cut off after the timeout, the answer checked against its schema,
 * and one log line with the plugin, gateway, payment, duration and outcome. Contexts carry config, and
 * config carries secrets: they are never logged, nor put on the span.
 */
const guardedCall = <A, I>(
  plugin: string,
  call: PluginCall,
  timeout: Duration.Duration,
  schema: Schema.Schema<A, I>,
  facts: CallFacts,
  invoke: (traceparent: string | undefined) => unknown,
  rejected: (message: string) => unknown = () => undefined
): Effect.Effect<A, PluginCallFailed> =>
  Effect.gen(function*() {
    const started = yield* realClock.currentTimeMillis
    const traceparent = yield* currentTraceparent
    const result = yield* answerOf(plugin, call, () => invoke(traceparent), rejected).pipe(
      Effect.timeoutFail({
        duration: timeout,
        onTimeout: () => new PluginCallFailed({ plugin, call, reason: "timed_out", message: `no answer within ${Duration.format(timeout)}` })
      }),
      Effect.flatMap((answer) =>
        Schema.decodeUnknown(schema)(answer).pipe(Effect.mapError((error) =>
          new PluginCallFailed({ plugin, call, reason: "malformed", message: `its answer has the wrong shape: ${ParseResult.TreeFormatter.formatErrorSync(error)}` })))),
      Effect.withClock(realClock),
      Effect.either
    )
    const fields = {
      plugin,
      call,
      ...(facts.gateway !== undefined ? { gateway: facts.gateway } : {}),
      ...(facts.trx !== undefined ? { trx_id: facts.trx } : {}),
      ...(facts.payout !== undefined ? { payout_id: facts.payout } : {}),
      duration_ms: (yield* realClock.currentTimeMillis) - started
    }
    yield* Metric.increment(
      Metric.tagged(Metric.tagged(Metric.tagged(gatewayCalls, "plugin", plugin), "operation", call), "outcome", Either.isLeft(result) ? result.left.reason : "ok")
    )
    if (Either.isLeft(result)) {
      yield* Effect.logWarning(`plugin call failed: ${result.left.message}`).pipe(Effect.annotateLogs({ ...fields, outcome: result.left.reason }))
      return yield* Effect.fail(result.left)
    }
    yield* Effect.logInfo("plugin call").pipe(Effect.annotateLogs({ ...fields, outcome: outcomeText(result.right) }))
    return result.right
  }).pipe(withSpanWhenTraced(`plugin ${call}`, {
    kind: "client",
    captureStackTrace: false,
    attributes: {
      "plugin.id": plugin,
      "plugin.call": call,
      ...(facts.gateway !== undefined ? { "gateway.id": facts.gateway } : {}),
      ...(facts.trx !== undefined ? { "payment.trx_id": facts.trx } : {}),
      ...(facts.payout !== undefined ? { "payout.id": facts.payout } : {})
    }
  }))

/** A short word for the log: the outcome or status an answer carries, else "ok". */
const outcomeText = (answer: unknown): string => {
  const record = answer as Record<string, unknown>
  if (record["verified"] === false) return "unverified"
  for (const key of ["outcome", "status"]) if (typeof record[key] === "string") return record[key]
  if (record["ignore"] === true) return "ignored"
  if (typeof record["redirect"] === "string") return "redirect"
  if (typeof record["html"] === "string") return "form"
  return "ok"
}

const gatewayLabel = (gateway: { readonly id: number; readonly code: string }) => `${gateway.id}:${gateway.code}`

const unsupported = (plugin: string, call: PluginCall) =>
  Effect.fail(new PluginCallFailed({ plugin, call, reason: "unsupported", message: `the ${plugin} plugin has no ${call}` }))

/**
 * A checked plugin object made into the one form the core calls, whatever its authoring style
 * (plain values, Promises or Effects). Nothing a plugin does (throw, hang, answer nonsense) escapes
 * as anything but PluginCallFailed.
 */
export const hostPlugin = (definition: GatewayPluginDefinition, options: HostingOptions = {}): HostedPlugin => {
  const id = definition.id
  const timeout = Duration.millis(options.callTimeoutMillis ?? DEFAULT_PLUGIN_CALL_TIMEOUT_MILLIS)
  const capabilities = capabilitiesOf(definition)
  const unverified = { outcome: "pending", verified: false }
  return {
    id,
    displayName: definition.displayName,
    version: definition.version,
    currencies: definition.currencies,
    environments: definition.environments,
    capabilities,
    secretConfigKeys: definition.secretConfigKeys ?? [],
    parseConfig: (raw) =>
      answerOf(id, "parseConfig", () => definition.parseConfig(raw), () => undefined).pipe(
        Effect.timeoutFail({
          duration: timeout,
          onTimeout: () => new PluginCallFailed({ plugin: id, call: "parseConfig", reason: "timed_out", message: "parseConfig did not answer" })
        }),
        Effect.withClock(realClock),
        // A thrown Error or a failed Effect is the plugin refusing the config: its message is the reason.
        Effect.catchIf((error) => error.reason === "threw" || error.reason === "failed", (error) =>
          Effect.fail(new GatewayConfigRejected({ message: error.message })))
      ),
    beginCheckout: (context) =>
      guardedCall(id, "beginCheckout", timeout, CheckoutStartSchema, { gateway: gatewayLabel(context.gateway), trx: context.trxId }, (traceparent) =>
        definition.beginCheckout(traced(context, traceparent))),
    handleReturn: (context) =>
      guardedCall(id, "handleReturn", timeout, ReturnReportSchema, { gateway: gatewayLabel(context.gateway), trx: context.trxId }, (traceparent) =>
        definition.handleReturn(traced(context, traceparent)), () => unverified),
    handleNotification: (context) =>
      definition.handleNotification === undefined || !capabilities.notifications
        ? unsupported(id, "handleNotification")
        : guardedCall(id, "handleNotification", timeout, NotificationReportSchema, { gateway: gatewayLabel(context.gateway) }, (traceparent) =>
          definition.handleNotification!(traced(context, traceparent)), () => ({ ignore: true, reply: { status: 400 } })),
    syncStatus: (context) =>
      definition.syncStatus === undefined || !capabilities.statusSync
        ? unsupported(id, "syncStatus")
        : guardedCall(id, "syncStatus", timeout, SyncReportSchema, { gateway: gatewayLabel(context.gateway), trx: context.trxId }, (traceparent) =>
          definition.syncStatus!(traced(context, traceparent))),
    refund: (context) =>
      definition.refund === undefined || !capabilities.refunds
        ? unsupported(id, "refund")
        : guardedCall(id, "refund", timeout, RefundReportSchema, { gateway: gatewayLabel(context.gateway), trx: context.trxId }, (traceparent) =>
          definition.refund!(traced(context, traceparent))),
    ...(typeof definition.settlementReport === "function"
      ? {
        // A month of balance transactions is many pages: the call gets ten times the usual time.
        settlementReport: (context: SettlementContext<unknown>) =>
          guardedCall(id, "settlementReport", Duration.times(timeout, 10), SettlementReportSchema, { gateway: gatewayLabel(context.gateway) }, (traceparent) =>
            definition.settlementReport!(traced(context, traceparent)))
      }
      : {}),
    payoutDestinationTypes: capabilities.payouts ? definition.payoutDestinationTypes ?? [] : [],
    sendPayout: (context) =>
      definition.sendPayout === undefined || !capabilities.payouts
        ? unsupported(id, "sendPayout")
        : guardedCall(id, "sendPayout", timeout, PayoutReportSchema, { gateway: gatewayLabel(context.gateway), payout: context.payoutId }, (traceparent) =>
          definition.sendPayout!(traced(context, traceparent))),
    submitDisputeEvidence: (context) =>
      definition.submitDisputeEvidence === undefined || !capabilities.disputeEvidence
        ? unsupported(id, "submitDisputeEvidence")
        : guardedCall(id, "submitDisputeEvidence", timeout, DisputeEvidenceReportSchema, { gateway: gatewayLabel(context.gateway), trx: context.trxId }, (traceparent) =>
          definition.submitDisputeEvidence!(traced(context, traceparent))),
    chargeSaved: (context) =>
      definition.chargeSaved === undefined || !capabilities.savedMethods
        ? unsupported(id, "chargeSaved")
        : guardedCall(id, "chargeSaved", timeout, SavedMethodChargeReportSchema, { gateway: gatewayLabel(context.gateway), trx: context.reference }, (traceparent) =>
          definition.chargeSaved!(traced(context, traceparent))),
    methodSetup: capabilities.savedMethods && typeof definition.beginSetup === "function" && typeof definition.handleSetupReturn === "function",
    beginSetup: (context) =>
      definition.beginSetup === undefined || !capabilities.savedMethods
        ? unsupported(id, "beginSetup")
        : guardedCall(id, "beginSetup", timeout, CheckoutStartSchema, { gateway: gatewayLabel(context.gateway) }, (traceparent) =>
          definition.beginSetup!(traced(context, traceparent))),
    handleSetupReturn: (context) =>
      definition.handleSetupReturn === undefined || !capabilities.savedMethods
        ? unsupported(id, "handleSetupReturn")
        : guardedCall(id, "handleSetupReturn", timeout, SetupReportSchema, { gateway: gatewayLabel(context.gateway) }, (traceparent) =>
          definition.handleSetupReturn!(traced(context, traceparent)), () => ({ outcome: "pending", verified: false })),
    testMethods: capabilities.savedMethods && typeof definition.testMethod === "function",
    // A method that declines by design is for sandbox only: in production the plugin is never asked.
    testMethod: (context) =>
      definition.testMethod === undefined || !capabilities.savedMethods
        ? unsupported(id, "testMethod")
        : context.environment !== "sandbox"
        ? Effect.fail(new PluginCallFailed({ plugin: id, call: "testMethod", reason: "unsupported", message: "testMethod serves sandbox only" }))
        : guardedCall(id, "testMethod", timeout, SavedMethodReportSchema, { gateway: gatewayLabel(context.gateway) }, (traceparent) =>
          definition.testMethod!(traced(context, traceparent)))
  }
}

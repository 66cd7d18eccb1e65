import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { Environment } from "../shared/environment.js"
import { RateLimiter } from "../rate-limit/rate-limiter.js"
import type { GatewayId } from "../shared/ids.js"
import { MICROS_PER_SECOND } from "../shared/instant.js"
import { realNow } from "../shared/real-clock.js"
import { gatewayCallee } from "../gateways/gateway-config.js"
import type { GatewayReply } from "../gateways/gateway-plugin.js"
import { acceptReport, type Verdict } from "./gateway-reports.js"
import { GatewayRepository } from "../gateways/gateway-repository.js"
import { syncPayment } from "./status-sync.js"
import { acceptDisputeReport, type DisputeVerdict } from "../disputes/gateway-disputes.js"

/** No gateway record by that id takes notifications (none, or its plugin has no handleNotification). */
export class NotificationTargetUnknown extends Schema.TaggedError<NotificationTargetUnknown>()("NotificationTargetUnknown", {
  gatewayId: Schema.Number
}) {}

export interface ReceivedNotification {
  readonly gatewayId: GatewayId
  readonly environment: Environment
  readonly rawBody: Uint8Array
  /** Lower-case names. */
  readonly headers: Readonly<Record<string, string>>
}

const OK: GatewayReply = { status: 200 }

/** What the core made of a notification: a payment's verdict, or a dispute's. */
export type NotificationVerdict = Verdict | DisputeVerdict

/** Unverified notifications make the kit ask the gateway, at most this often per payment (a minute window). */
export const SYNCS_PER_PAYMENT_PER_MINUTE = 1

/**
 * Whether the gateway was already asked about this payment, because of an unverified notification,
 * in the current minute (on the wall clock, across every host of the store). Anyone can post an
 * unverified notification naming a real transaction; without this, a thousand of them would be a
 * thousand calls to the gateway.
 */
const askedRecently = (gatewayId: GatewayId, trxId: string) =>
  Effect.gen(function*() {
    const nowSeconds = Number((yield* realNow) / MICROS_PER_SECOND)
    const decision = yield* (yield* RateLimiter).check(`notification-sync|${gatewayId}|${trxId}`, SYNCS_PER_PAYMENT_PER_MINUTE, nowSeconds)
    return !decision.allowed
  })

/**
 * A gateway's server-to-server word. The plugin verifies and parses it; the core decides what it
 * changes (acceptReport). A notification the plugin could not verify is never trusted: the gateway
 * is asked instead when it can be, else it is logged and dropped. The gateway gets the plugin's reply.
 */
export const receiveNotification = (notification: ReceivedNotification) =>
  Effect.gen(function*() {
    const gateway = yield* (yield* GatewayRepository).findById(notification.gatewayId)
    if (Option.isNone(gateway)) return yield* new NotificationTargetUnknown({ gatewayId: notification.gatewayId })
    const { plugin, config, ref } = yield* gatewayCallee(gateway.value).pipe(
      Effect.catchTag("UnknownGatewayPlugin", () => new NotificationTargetUnknown({ gatewayId: notification.gatewayId }))
    )
    if (!plugin.capabilities.notifications) return yield* new NotificationTargetUnknown({ gatewayId: notification.gatewayId })
    const report = yield* plugin.handleNotification({
      rawBody: notification.rawBody,
      headers: notification.headers,
      config,
      environment: notification.environment,
      gateway: ref
    })
    if ("ignore" in report) return { reply: report.reply ?? OK, verdict: { _tag: "Ignored", reason: "the plugin ignored it" } satisfies NotificationVerdict }
    if ("dispute" in report) return { reply: report.reply ?? OK, verdict: (yield* acceptDisputeReport(gateway.value, report.dispute)) as NotificationVerdict }
    const { reply, verified, ...word } = report
    const verdict: NotificationVerdict = verified
      ? yield* acceptReport(gateway.value, word, "notification")
      : (yield* askedRecently(notification.gatewayId, word.trxId))
      ? { _tag: "Ignored", reason: "unverified; the gateway was asked about this payment within the minute" }
      : yield* syncPayment(gateway.value, word.trxId, "notification")
    return { reply: reply ?? OK, verdict }
  })

import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { gatewayCallee } from "../gateways/gateway-config.js"
import { GatewayRepository } from "../gateways/gateway-repository.js"
import type { SetupStart } from "../gateways/gateway-plugin.js"
import { GatewayId } from "../shared/ids.js"
import { now, plusSeconds } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { Ids } from "../signing/random-ids.js"
import { MethodUpdateUnavailable } from "./method-update.js"
import { type MethodSetup, MethodSetupRepository } from "./method-setup-repository.js"
import { SavedMethodRepository } from "./saved-method.js"
import { openReference, replaceSavedMethod } from "./saved-methods.js"
import type { Subscription } from "./subscription.js"
import { SubscriptionRepository } from "./subscription-repository.js"

/** How long a setup session may be completed: the customer portal's hour, which it starts from. */
export const METHOD_SETUP_SECONDS = 3600

/** A setup session that can no longer be completed: used already, expired, or its subscription cancelled. */
export class MethodSetupClosed extends Schema.TaggedError<MethodSetupClosed>()("MethodSetupClosed", {
  reason: Schema.Literal("used", "expired", "cancelled")
}) {}

/** Where the customer comes back from a setup session, by its id: built by the edge, which knows the addresses. */
export interface SetupAddresses {
  readonly returnUrl: string
  readonly cancelUrl: string
}

/**
 * Replaces a subscription's saved method with nothing to pay (issue 36): a setup-only session at the
 * gateway record the current method was saved through (renewals charge through it), when its plugin
 * offers one. No method, a cancelled subscription or a plugin without setup: MethodUpdateUnavailable.
 */
export const startMethodSetup = (subscription: Subscription, merchantName: string, addresses: (setupId: string) => SetupAddresses) =>
  Effect.gen(function*() {
    const unavailable = new MethodUpdateUnavailable({ subscriptionId: subscription.id, message: "This subscription's payment method cannot be replaced now." })
    if (subscription.status === "cancelled" || subscription.savedMethodId === null) return yield* unavailable
    const current = yield* (yield* SavedMethodRepository).findById(subscription.savedMethodId)
    if (Option.isNone(current)) return yield* unavailable
    const gateway = yield* (yield* GatewayRepository).findById(GatewayId(current.value.gatewayId))
    if (Option.isNone(gateway) || !gateway.value.active) return yield* unavailable
    const { config, plugin, ref } = yield* gatewayCallee(gateway.value)
    if (!plugin.methodSetup) return yield* unavailable
    const at = yield* now
    const setups = yield* MethodSetupRepository
    const setup = yield* setups.insert({
      id: yield* (yield* Ids).token(18),
      subscriptionId: subscription.id,
      merchantId: subscription.merchantId,
      environment: subscription.environment,
      gatewayId: gateway.value.id,
      gatewayReference: null,
      savedMethodId: null,
      expiresAt: plusSeconds(at, METHOD_SETUP_SECONDS),
      completedAt: null,
      createdAt: at
    })
    const start: SetupStart = yield* plugin.beginSetup({
      setupId: setup.id,
      currency: subscription.currency,
      environment: subscription.environment,
      gateway: ref,
      config,
      merchantName,
      customerEmail: subscription.customerEmail,
      customerName: subscription.customerName,
      currentMethod: yield* openReference(current.value),
      ...addresses(setup.id)
    })
    if (start.gatewayReference !== undefined) yield* setups.setReference(setup.id, start.gatewayReference)
    return { setup, start, gatewayName: gateway.value.name }
  })

/** How a setup session's return ended: the method replaced, or nothing changed (and why). */
export type MethodSetupOutcome =
  | { readonly _tag: "Saved"; readonly brand: string; readonly last4: string }
  | { readonly _tag: "Unchanged"; readonly reason: "cancelled" | "pending" | "unverified" }

/**
 * The customer came back from a setup session. The plugin reads the gateway's word; a verified saved
 * method replaces the subscription's in one transaction that also uses the session up, so a second
 * return (or a replayed one) saves nothing. Expired and used sessions are refused before the gateway
 * is asked. The next renewal charges the new method: renewals read the subscription's method.
 */
export const settleMethodSetup = (setup: MethodSetup, fields: Readonly<Record<string, string>>) =>
  Effect.gen(function*() {
    if (setup.completedAt !== null) return yield* new MethodSetupClosed({ reason: "used" })
    if (setup.expiresAt <= (yield* now)) return yield* new MethodSetupClosed({ reason: "expired" })
    const gateway = yield* (yield* GatewayRepository).findById(GatewayId(setup.gatewayId))
    if (Option.isNone(gateway)) return yield* new MethodSetupClosed({ reason: "cancelled" })
    const { config, plugin, ref } = yield* gatewayCallee(gateway.value)
    const report = yield* plugin.handleSetupReturn({
      setupId: setup.id, environment: setup.environment, gateway: ref, config, fields, gatewayReference: setup.gatewayReference
    })
    if (!report.verified) return { _tag: "Unchanged", reason: "unverified" } satisfies MethodSetupOutcome
    if (report.outcome !== "saved") return { _tag: "Unchanged", reason: report.outcome } satisfies MethodSetupOutcome
    const saved = report.savedMethod
    return yield* Effect.flatMap(Transactor, ({ withTransaction }) =>
      withTransaction(Effect.gen(function*() {
        const locked = yield* (yield* SubscriptionRepository).findByIdForUpdate(setup.subscriptionId)
        if (Option.isNone(locked) || locked.value.status === "cancelled") return yield* new MethodSetupClosed({ reason: "cancelled" })
        const at = yield* now
        const method = yield* replaceSavedMethod(locked.value, setup.gatewayId, saved, at)
        const used = yield* (yield* MethodSetupRepository).complete(setup.id, method.id, at)
        // Lost the race to another return, or expired while the gateway was asked: the transaction is undone.
        if (Option.isNone(used)) return yield* new MethodSetupClosed({ reason: setup.expiresAt <= at ? "expired" : "used" })
        yield* Effect.logInfo("payment method replaced by setup").pipe(
          Effect.annotateLogs({ subscription: setup.subscriptionId, setup_gateway: setup.gatewayId, brand: saved.brand, last4: saved.last4 }))
        return { _tag: "Saved", brand: saved.brand, last4: saved.last4 } satisfies MethodSetupOutcome
      })))
  })

/** A setup session by id, if there is one. */
export const findMethodSetup = (id: string) => Effect.flatMap(MethodSetupRepository, (repo) => repo.findById(id))

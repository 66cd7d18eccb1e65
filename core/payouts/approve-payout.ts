import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import { gatewayCallee } from "../gateways/gateway-config.js"
import { type GatewayRef, type PayoutDestinationAtRail, PluginCallFailed } from "../gateways/gateway-plugin.js"
import { GatewayRepository } from "../gateways/gateway-repository.js"
import { amountText } from "../payments/gateway-reports.js"
import { SecretBox } from "../signing/secret-box.js"
import { operatePayout } from "./operate-payout.js"
import { type Payout, PayoutNotFound } from "./payout.js"
import type { PayoutDestination } from "./payout-destination.js"
import { PayoutDestinationRepository } from "./payout-destination-repository.js"
import { MANUAL_RAIL_GATEWAY, type PayoutRail, railFor } from "./payout-rail.js"
import { PayoutRepository } from "./payout-repository.js"

const noRecord = (rail: PayoutRail, currency: string) =>
  new PluginCallFailed({
    plugin: rail.id,
    call: "sendPayout",
    reason: "failed",
    message: `no active gateway record of the ${rail.id} plugin to pay ${currency} out with`
  })

/** The config a plugin rail's call carries: its active gateway record of the payout's currency, else its first active one. */
const gatewayFor = (rail: PayoutRail, currency: string) =>
  Effect.gen(function*() {
    if (!rail.needsGatewayRecord) return { config: undefined as unknown, ref: MANUAL_RAIL_GATEWAY as GatewayRef }
    const records = (yield* (yield* GatewayRepository).list).filter((each) => each.plugin === rail.id && each.active)
    const record = records.find((each) => each.currency === currency) ?? records[0]
    if (record === undefined) return yield* noRecord(rail, currency)
    const { config, ref } = yield* gatewayCallee(record).pipe(
      Effect.catchTag("UnknownGatewayPlugin", () => Effect.fail(noRecord(rail, currency)))
    )
    return { config, ref }
  })

const destinationAtRail = (destination: PayoutDestination) =>
  Effect.gen(function*(): Effect.fn.Return<PayoutDestinationAtRail, PluginCallFailed, SecretBox> {
    if (destination.type === "stripe_account") return { type: "stripe_account", accountId: destination.accountId ?? "" }
    const iban = (yield* SecretBox).open(destination.sealedIban)
    if (Either.isLeft(iban)) {
      return yield* new PluginCallFailed({ plugin: "kit", call: "sendPayout", reason: "failed", message: "the destination's IBAN could not be opened: is MASTER_KEY the one it was sealed with?" })
    }
    return { type: "bank_account", accountHolder: destination.accountHolder, iban: iban.right, bic: destination.bic }
  })

/**
 * Hands an approved payout to its rail, after the approval committed (a rail's call is never held
 * inside a transaction). A rail that answers paid or failed moves the payout through the operator's
 * own steps, so the money moves once, by the same code; pending leaves it approved. A rail that
 * could not be reached leaves it approved too, logged, for the operator to settle.
 */
const handOff = (payout: Payout, destination: PayoutDestination, rail: PayoutRail) =>
  Effect.gen(function*() {
    const { config, ref } = yield* gatewayFor(rail, payout.currency)
    const report = yield* rail.send({
      payoutId: payout.id,
      merchantId: payout.merchantId,
      amount: yield* amountText(payout.amount, payout.currency),
      currency: payout.currency,
      environment: payout.environment,
      destination: yield* destinationAtRail(destination),
      idempotencyKey: payout.id,
      config,
      gateway: ref
    })
    if (report.status === "paid") return yield* operatePayout(payout.id, "mark-paid", report.reference !== undefined ? { reference: report.reference } : {})
    if (report.status === "failed") return yield* operatePayout(payout.id, "mark-failed", { reason: report.reason ?? `The ${rail.id} rail refused the payout.` })
    return payout
  }).pipe(
    Effect.catchTags({
      PluginCallFailed: (failed) =>
        Effect.as(Effect.logWarning(`payout ${payout.id} stays approved: its rail ${rail.id} could not take it: ${failed.message}`), payout),
      // An operator settled it meanwhile: theirs is the payout's last word.
      PayoutTransitionRefused: () => Effect.map((Effect.flatMap(PayoutRepository, (payouts) => payouts.findForUpdate(payout.id))), Option.getOrElse(() => payout)),
      PayoutNotFound: () => Effect.succeed(payout)
    })
  )

/**
 * An operator approves a pending payout: it is approved naming the rail its destination's type goes
 * by, then handed to that rail. The answer is the payout as it stands after the hand-off.
 */
export const approvePayout = (id: string) =>
  Effect.gen(function*() {
    const found = yield* (yield* PayoutRepository).findForUpdate(id)
    if (Option.isNone(found)) return yield* new PayoutNotFound()
    const destination = yield* (yield* PayoutDestinationRepository).findForPayout(found.value.destinationId)
    const rail = Option.isSome(destination) ? yield* railFor(destination.value.type) : Option.none()
    const approved = yield* operatePayout(id, "approve", { rail: Option.match(rail, { onNone: () => null, onSome: (each) => each.id }) })
    if (Option.isNone(destination) || Option.isNone(rail)) return approved
    return yield* handOff(approved, destination.value, rail.value)
  })

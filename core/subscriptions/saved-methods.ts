import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import type { SavedMethodReport } from "../gateways/plugin-saved-methods.js"
import type { Payment } from "../payments/payment.js"
import { SavedMethodKeeper } from "../payments/saved-method-keeper.js"
import { type Instant, now } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { Ids } from "../signing/random-ids.js"
import { SecretBox } from "../signing/secret-box.js"
import { type SavedMethod, SavedMethodRepository } from "./saved-method.js"
import type { Subscription } from "./subscription.js"
import { SubscriptionRepository } from "./subscription-repository.js"
import { moveSubscription } from "./wake.js"

/** What the API shows of a saved method: never its reference. */
export interface SavedMethodFacts {
  readonly brand: string
  readonly last4: string
  readonly expMonth: number
  readonly expYear: number
}

export const factsOf = (method: SavedMethod): SavedMethodFacts =>
  ({ brand: method.brand, last4: method.last4, expMonth: method.expMonth, expYear: method.expYear })

/** The gateway's reference of a saved method, opened: a value that will not open is a setup defect. */
export const openReference = (method: SavedMethod) =>
  Effect.flatMap(SecretBox, (box) =>
    Either.match(box.open(method.sealedReference), {
      onLeft: (error) => Effect.die(error),
      onRight: Effect.succeed
    }))

/**
 * Saves a method the gateway reported and makes it the one a subscription the caller holds locked
 * renews with, replacing its earlier one: at a paid invoice's checkout, or at a setup-only session.
 */
export const replaceSavedMethod = (subscription: Subscription, gatewayId: number, report: SavedMethodReport, at: Instant) =>
  Effect.gen(function*() {
    const method = yield* (yield* SavedMethodRepository).insert({
      id: yield* (yield* Ids).uuid,
      merchantId: subscription.merchantId,
      environment: subscription.environment,
      customerEmail: subscription.customerEmail,
      gatewayId,
      sealedReference: (yield* SecretBox).seal(report.reference),
      brand: report.brand,
      last4: report.last4,
      expMonth: report.expMonth,
      expYear: report.expYear,
      createdAt: at
    })
    yield* moveSubscription(subscription, { savedMethodId: method.id }, at)
    return method
  })

/**
 * Keeps the method a gateway saved with an invoice's paid payment as its subscription's method for
 * renewals, replacing an earlier one (a customer who paid a hosted invoice with another card chose
 * it). The same method reported twice (a return, then a notification) is kept once.
 */
export const keepSavedMethod = (payment: Payment, gatewayId: number, report: SavedMethodReport) =>
  Effect.flatMap(Transactor, ({ withTransaction }) =>
    withTransaction(Effect.gen(function*() {
      const repo = yield* SubscriptionRepository
      const methods = yield* SavedMethodRepository
      const invoice = yield* repo.findInvoiceById(payment.invoiceId!)
      if (Option.isNone(invoice)) return
      const locked = yield* repo.findByIdForUpdate(invoice.value.subscriptionId)
      if (Option.isNone(locked) || locked.value.status === "cancelled") return
      const subscription = locked.value
      if (subscription.savedMethodId !== null) {
        const current = yield* methods.findById(subscription.savedMethodId)
        if (Option.isSome(current) && current.value.gatewayId === gatewayId && (yield* openReference(current.value)) === report.reference) return
      }
      yield* replaceSavedMethod(subscription, gatewayId, report, yield* now)
      yield* Effect.logInfo("payment method saved for renewals").pipe(
        Effect.annotateLogs({ subscription: subscription.id, trx_id: payment.trxId, brand: report.brand, last4: report.last4 }))
    })))

/** The subscription's saved method's display facts, when it has one. */
export const savedMethodFactsOf = (subscription: { readonly savedMethodId: string | null }) =>
  subscription.savedMethodId === null
    ? Effect.succeed(undefined)
    : Effect.map(
      Effect.flatMap(SavedMethodRepository, (repo) => repo.findById(subscription.savedMethodId!)),
      Option.match({ onNone: () => undefined, onSome: factsOf })
    )

/** Wires keeping saved methods into acceptReport (core/payments), which knows nothing of subscriptions. */
export const keeperLayer = Layer.effect(
  SavedMethodKeeper,
  Effect.map(Effect.context<Transactor | SubscriptionRepository | SavedMethodRepository | SecretBox | Ids>(), (context) => ({
    keep: (payment: Payment, gatewayId: number, method: SavedMethodReport) =>
      Effect.provide(keepSavedMethod(payment, gatewayId, method), context)
  }))
)

import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Metric from "effect/Metric"
import * as Option from "effect/Option"
import { gatewayCallee } from "../gateways/gateway-config.js"
import { GatewayRepository } from "../gateways/gateway-repository.js"
import type { PluginCallFailed } from "../gateways/gateway-plugin.js"
import type { SavedMethodChargeReport } from "../gateways/plugin-saved-methods.js"
import { enqueueMail } from "../mail/enqueue-mail.js"
import { finishPayment } from "../payments/finish-payment.js"
import { amountText } from "../payments/gateway-reports.js"
import { GatewayId } from "../shared/ids.js"
import { type Instant, now, plusSeconds, toIsoString } from "../shared/instant.js"
import { renewalCharges } from "../shared/metrics.js"
import { Transactor } from "../shared/transactor.js"
import { billingSettingsOf } from "./billing-settings.js"
import { beginDunning } from "./dunning-start.js"
import { customerMailOf, invoiceMailFacts, invoicePayUrl } from "./invoice-mail.js"
import { latestInvoice, openInvoice, retireInvoice } from "./invoices.js"
import { type DuePlan, duePeriod, isOpen } from "./lifecycle.js"
import { planRetry } from "./retry-plan.js"
import { SavedMethodRepository } from "./saved-method.js"
import { openReference } from "./saved-methods.js"
import type { Invoice, Subscription, SubscriptionChange } from "./subscription.js"
import { enqueueSubscriptionEvent } from "./subscription-events.js"
import { SubscriptionRepository } from "./subscription-repository.js"
import { moveSubscription } from "./wake.js"

/**
 * Automatic renewals of subscriptions with a saved method (issue 36). The scheduler opens the
 * period's invoice as for any renewal, but instead of falling past_due the subscription stays active
 * and a charge of its saved method is scheduled at once (`chargeAt`). Each try is three steps, so no
 * gateway call ever runs inside a database transaction: claim it under the subscription's lock (its
 * idempotency key written down), call the gateway, record the outcome under the lock again. A crash
 * between leaves the claim: the next tick tries again with the same key, and the gateway answers
 * that same attempt rather than charging twice.
 */

/** A plugin that gave no answer (timed out, unreachable) is asked again, with the same key, this much later. */
const UNANSWERED_RETRY_SECONDS = 3_600
/** An invoice whose checkout lapses this soon is replaced before a try, so a paid charge always has a pending payment to end. */
const CHECKOUT_MARGIN_SECONDS = 120

/** The change that makes a due renewal an automatic one: it stays active, and its first try is due now. */
export const automaticRenewalChange = (subscription: Subscription, plan: DuePlan, at: Instant): SubscriptionChange | undefined =>
  plan._tag === "Renew" && subscription.savedMethodId !== null
    ? { nextBillingAt: null, chargeAt: at, chargeAttempts: 0, chargeClaim: null }
    : undefined

const cleared: SubscriptionChange = { chargeAt: null, chargeAttempts: 0, chargeClaim: null }

interface Claim {
  readonly subscription: Subscription
  readonly invoice: Invoice
  readonly key: string
  readonly method: string
  readonly gatewayId: GatewayId
}

/** An invoice payable until well after `at`: else retired and replaced by the same period's next one. */
const payableInvoice = (subscription: Subscription, at: Instant) =>
  Effect.gen(function*() {
    const latest = yield* latestInvoice(subscription.id)
    if (latest !== undefined && latest.status === "paid") return undefined
    if (latest !== undefined && isOpen(latest, plusSeconds(at, CHECKOUT_MARGIN_SECONDS))) return latest
    if (latest !== undefined && latest.status === "pending") yield* retireInvoice(latest, at)
    const invoice = yield* openInvoice(subscription, duePeriod(subscription), (latest?.sequence ?? 0) + 1)
    yield* enqueueSubscriptionEvent("invoice.created", subscription, invoice, invoice)
    return invoice
  })

/** Step 1, in a transaction under the lock: the try that is due, its key written down. */
const claimCharge = (id: string) =>
  Effect.gen(function*() {
    const at = yield* now
    const found = yield* (yield* SubscriptionRepository).findByIdForUpdate(id)
    if (Option.isNone(found)) return undefined
    let subscription = found.value
    if (subscription.status === "cancelled" || subscription.chargeAt === null || subscription.chargeAt > at) return undefined
    const stop = (why: string) =>
      Effect.gen(function*() {
        yield* moveSubscription(subscription, cleared, at)
        yield* Effect.logInfo(`renewal charge dropped: ${why}`).pipe(Effect.annotateLogs({ subscription: subscription.id }))
        return undefined
      })
    const method = subscription.savedMethodId === null ? Option.none() : yield* (yield* SavedMethodRepository).findById(subscription.savedMethodId)
    if (Option.isNone(method)) return yield* stop("no saved method")
    const invoice = yield* payableInvoice(subscription, at)
    if (invoice === undefined) return yield* stop("the invoice is already paid")
    // Keyed by the period and the try's number: the same after a crash, whatever invoice carries it.
    const key = subscription.chargeClaim ?? `renewal-${subscription.id}-${invoice.periodStart ?? 0n}-${subscription.chargeAttempts + 1}`
    if (subscription.chargeClaim === null) subscription = Option.getOrThrow(yield* moveSubscription(subscription, { chargeClaim: key }, at))
    return { subscription, invoice, key, method: yield* openReference(method.value), gatewayId: GatewayId(method.value.gatewayId) } satisfies Claim
  })

/** Step 2, outside any transaction: the gateway's answer, or why there is none. */
const callGateway = (claim: Claim) =>
  Effect.gen(function*() {
    const gateway = yield* (yield* GatewayRepository).findById(claim.gatewayId)
    if (Option.isNone(gateway)) {
      return { status: "hard_declined", message: "The gateway this method was saved with no longer exists." } satisfies SavedMethodChargeReport
    }
    const { config, plugin, ref } = yield* gatewayCallee(gateway.value)
    return yield* plugin.chargeSaved({
      method: claim.method,
      amount: yield* amountText(claim.invoice.amount, claim.invoice.currency),
      currency: claim.invoice.currency,
      reference: claim.invoice.reference,
      idempotencyKey: claim.key,
      environment: claim.subscription.environment,
      gateway: ref,
      config
    })
  }).pipe(
    // A plugin without the capability can never charge it: as final as a hard decline.
    Effect.catchTag("PluginCallFailed", (failed: PluginCallFailed) =>
      failed.reason === "unsupported"
        ? Effect.succeed({ status: "hard_declined", message: failed.message } satisfies SavedMethodChargeReport)
        : Effect.fail(failed)),
    Effect.catchTag("UnknownGatewayPlugin", () =>
      Effect.succeed({ status: "hard_declined", message: "The plugin this method was saved with is not installed." } satisfies SavedMethodChargeReport)),
    Effect.either
  )

export type ChargeOutcome = "none" | SavedMethodChargeReport["status"] | "unanswered"

/** Step 3, in a transaction under the lock: the answer recorded, if the claim is still ours. */
const recordCharge = (claim: Claim, answer: Either.Either<SavedMethodChargeReport, unknown>) =>
  Effect.gen(function*() {
    const at = yield* now
    const repo = yield* SubscriptionRepository
    const found = yield* repo.findByIdForUpdate(claim.subscription.id)
    if (Option.isNone(found) || found.value.chargeClaim !== claim.key) return "none" as ChargeOutcome
    const subscription = found.value
    if (Either.isLeft(answer)) {
      // No answer: the same try again later, same key; the claim stays.
      yield* moveSubscription(subscription, { chargeAt: plusSeconds(at, UNANSWERED_RETRY_SECONDS) }, at)
      yield* Effect.logWarning("renewal charge unanswered; trying again with the same key").pipe(
        Effect.annotateLogs({ subscription: subscription.id, idempotency_key: claim.key }))
      return "unanswered" as ChargeOutcome
    }
    const report = answer.right
    if (report.status === "paid") {
      const ready = Option.getOrThrow(yield* moveSubscription(subscription, cleared, at))
      // The one path payments end by: the invoice is settled and the subscription renewed there.
      yield* finishPayment(claim.invoice.trxId!, { outcome: "paid", gatewayId: claim.gatewayId }).pipe(
        Effect.catchTag("PaymentAlreadyFinal", (error) =>
          Effect.logError("renewal charged, but its payment had already ended: reconcile by hand").pipe(
            Effect.annotateLogs({ subscription: ready.id, trx_id: error.trxId, gateway_reference: report.gatewayReference }))),
        Effect.catchTag("PaymentNotFound", (error) => Effect.die(error))
      )
      return "paid" as ChargeOutcome
    }
    const tries = subscription.chargeAttempts + 1
    const firstTryAt = claim.invoice.periodStart ?? at
    const plan = planRetry(report.status, tries, firstTryAt, (yield* billingSettingsOf(subscription.merchantId)).retryHours, at)
    const invoice = Option.getOrElse(yield* repo.findInvoiceById(claim.invoice.id), () => claim.invoice)
    const wasActive = subscription.status === "active"
    // A due renewal failed (spec 3.2): past_due from the first decline on.
    const change: SubscriptionChange = plan._tag === "RetryAt"
      ? { status: "past_due", chargeAt: plan.at, chargeAttempts: tries, chargeClaim: null }
      : { status: "past_due", ...cleared, chargeAttempts: tries, ...(yield* beginDunning(subscription, at)) }
    const moved = Option.getOrThrow(yield* moveSubscription(subscription, change, at))
    yield* enqueueSubscriptionEvent("invoice.payment_failed", moved, invoice, invoice)
    if (wasActive) yield* enqueueSubscriptionEvent("subscription.past_due", moved, invoice, invoice)
    yield* Effect.logInfo(`renewal charge ${report.status}: ${report.message}`).pipe(
      Effect.annotateLogs({ subscription: subscription.id, tries, next: plan._tag === "RetryAt" ? String(plan.at) : plan.reason }))
    // The hosted invoice is what the customer pays from now on: make sure it is payable.
    const payable = plan._tag === "FallBack" ? yield* payableInvoice(moved, at) : invoice
    const told = payable ?? invoice
    yield* enqueueMail({
      ...customerMailOf(moved),
      kind: "payment_method_failed",
      facts: {
        ...invoiceMailFacts(moved, told),
        payUrl: yield* invoicePayUrl(told),
        reason: report.message === "" ? null : report.message,
        nextRetryAt: plan._tag === "RetryAt" ? toIsoString(plan.at) : null
      }
    })
    return report.status as ChargeOutcome
  })

/**
 * Runs the subscription's due renewal charge, if one is due: claim, call, record. Called by the
 * scheduler after the subscription's own due work, for each subscription it wakes.
 */
export const chargeIfDue = (id: string) =>
  Effect.gen(function*() {
    const { withTransaction } = yield* Transactor
    const claim = yield* withTransaction(claimCharge(id))
    if (claim === undefined) return "none" as ChargeOutcome
    const answer = yield* callGateway(claim)
    const outcome = yield* withTransaction(recordCharge(claim, answer))
    if (outcome !== "none") yield* Metric.increment(Metric.tagged(renewalCharges, "outcome", outcome))
    return outcome
  })

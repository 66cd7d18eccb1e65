import * as Effect from "effect/Effect"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import type { AmountInput } from "../money/parse.js"
import { type MethodListInput, methodCodes } from "../gateways/method-list.js"
import { checkoutTerms } from "../payments/initiate-payment.js"
import { type Instant, now } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { ValidationFailed } from "../shared/validation.js"
import { Ids } from "../signing/random-ids.js"
import { NO_IPN_TARGET, subscriptionIpnUrlRefusal } from "../webhooks/ipn-url-rule.js"
import { openInvoice } from "./invoices.js"
import { duePeriod } from "./lifecycle.js"
import { trialStart } from "./plan-changes.js"
import type { Subscription } from "./subscription.js"
import { enqueueSubscriptionEvent } from "./subscription-events.js"
import { SubscriptionRepository } from "./subscription-repository.js"
import { wakeAtOf } from "./wake.js"
import { atTestClockTime } from "../shared/test-clock-time.js"
import { clockToLiveOn, roomOnClock } from "./test-clock-objects.js"

/** What a merchant asks for: the subscription's own terms, with the amount as sent and an optional start. */
export type CreateSubscriptionRequest =
  & Pick<
    Subscription,
    | "externalReference"
    | "billingCycle"
    | "currency"
    | "customerEmail"
    | "customerName"
    | "description"
    | "successRedirect"
    | "cancelRedirect"
    | "ipnUrl"
    | "metadata"
  >
  & {
    readonly amount: AmountInput
    /** `allow_payment_methods` as sent: gateway codes (methodCodes), each among the eligible ones. */
    readonly allowPaymentMethods: MethodListInput
    /** null for an immediate start. */
    readonly startsAt: Instant | null
    /** The sandbox test clock to live on (issue 36); absent or null: real time. */
    readonly testClockId?: string | null
    /** A free trial of so many days (plan-changes.ts trialStart); null: none. Not with startsAt. */
    readonly trialDays?: number | null
    /** The customer's mail language, one of the checkout's (checked at the edge); absent or null: English. */
    readonly locale?: string | null
  }

/**
 * Spec 4.5 and the first row(s) of 3.2: the checkout terms of the currency (enabled, wallet, amount
 * at least 1 in its digits), methods among the eligible ones, a start not in the past; then the
 * subscription, and for an immediate start its first invoice and `invoice.created`, in one
 * transaction. A future start waits for the scheduler.
 */
export const createSubscription = (caller: MerchantScope, request: CreateSubscriptionRequest) =>
  Effect.gen(function*() {
    // A lookup, so before the transaction: no store lock is held while DNS answers.
    const ipnRefusal = request.ipnUrl === NO_IPN_TARGET ? undefined : yield* subscriptionIpnUrlRefusal(request.ipnUrl)
    if (ipnRefusal !== undefined) return yield* ValidationFailed.field("ipnUrl", ipnRefusal)
    const allowPaymentMethods = methodCodes(request.allowPaymentMethods)
    const clock = request.testClockId == null ? undefined : yield* clockToLiveOn(caller, request.testClockId)
    // On a clock, the subscription is created at its frozen time: the anchor and created_at are its.
    const onItsTime = clock === undefined ? <A, E, R>(effect: Effect.Effect<A, E, R>) => effect : atTestClockTime(clock.frozenTime)
    return yield* Effect.flatMap(Transactor, ({ withTransaction }) => onItsTime(withTransaction(Effect.gen(function*() {
      if (clock !== undefined) yield* roomOnClock(clock)
      const at = yield* now
      if (request.startsAt !== null && request.startsAt < at) {
        return yield* ValidationFailed.field("startsAt", "The starts at field must not be in the past.")
      }
      const trialDays = request.trialDays ?? null
      if (trialDays !== null && request.startsAt !== null) {
        return yield* ValidationFailed.field("trialDays", "The trial days field cannot be combined with starts at: a trial starts now.")
      }
      const { amount, eligible } = yield* checkoutTerms(caller, request.currency, request.amount)
      const offered = new Set(eligible.map((gateway) => gateway.code))
      const unknown = allowPaymentMethods.filter((code) => !offered.has(code))
      if (unknown.length > 0) {
        const known = [...offered].join(", ") || "none"
        return yield* ValidationFailed.field(
          "allowPaymentMethods",
          `These methods are not available for ${request.currency}: ${unknown.join(", ")}. Available: ${known}.`
        )
      }

      const immediate = request.startsAt === null || request.startsAt <= at
      const repo = yield* SubscriptionRepository
      const draft = {
        id: yield* (yield* Ids).uuid,
        merchantId: caller.merchant.id,
        environment: caller.environment,
        externalReference: request.externalReference,
        status: "pending",
        billingCycle: request.billingCycle,
        amount,
        currency: request.currency,
        customerEmail: request.customerEmail,
        customerName: request.customerName,
        description: request.description,
        successRedirect: request.successRedirect,
        cancelRedirect: request.cancelRedirect,
        ipnUrl: request.ipnUrl,
        allowPaymentMethods,
        metadata: request.metadata,
        // The billing anchor: every period boundary is counted from it.
        startsAt: request.startsAt ?? at,
        currentPeriodStart: null,
        currentPeriodEnd: null,
        nextBillingAt: immediate ? null : request.startsAt,
        cancelAtPeriodEnd: false,
        cancelledAt: null,
        testClockId: clock?.id ?? null,
        locale: request.locale ?? null,
        dunning: null,
        savedMethodId: null,
        chargeAt: null,
        chargeAttempts: 0,
        chargeClaim: null
      } as const
      // A trial: active now, no invoice until it ends (docs/decisions.md: no new status).
      const terms = trialDays === null ? draft : { ...draft, ...trialStart(trialDays, at) }
      const subscription = yield* repo.insert({ ...terms, wakeAt: wakeAtOf(terms) })
      if (!immediate || trialDays !== null) return { subscription, latest: undefined }
      const invoice = yield* openInvoice(subscription, duePeriod(subscription), 1)
      yield* enqueueSubscriptionEvent("invoice.created", subscription, invoice, invoice)
      return { subscription, latest: invoice }
    }))))
  })

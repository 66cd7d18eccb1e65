import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { gatewayCallee } from "../gateways/gateway-config.js"
import { checkoutTerms } from "../payments/initiate-payment.js"
import { simulatePayment } from "../payments/verify-payment.js"
import { type Instant, now, plusSeconds, toSeconds, fromSeconds } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { ValidationFailed } from "../shared/validation.js"
import { Ids } from "../signing/random-ids.js"
import { advanceTestClock } from "../subscriptions/advance-test-clock.js"
import { billingSettingsOf } from "../subscriptions/billing-settings.js"
import { cancelSubscription } from "../subscriptions/change-subscription.js"
import { createSubscription } from "../subscriptions/create-subscription.js"
import { replaceSavedMethod } from "../subscriptions/saved-methods.js"
import { SubscriptionRepository } from "../subscriptions/subscription-repository.js"
import { TRIAL_NOTICE_DAYS } from "../subscriptions/plan-changes.js"
import { pauseSubscription, resumeSubscription, updateSubscription } from "../subscriptions/subscription-changes.js"
import { retrieveSubscription } from "../subscriptions/subscription-queries.js"
import { createTestClock, deleteTestClock, listTestClocks } from "../subscriptions/test-clocks.js"
import { REDIRECT_ADDRESSES, TRIGGER_AMOUNT, TRIGGER_NEW_AMOUNT, type TriggeredObject, type TriggerRun, triggerCurrency, triggerReference } from "./triggered-objects.js"

export type SubscriptionTrigger =
  | "invoice.created"
  | "invoice.paid"
  | "subscription.activated"
  | "subscription.updated"
  | "subscription.paused"
  | "subscription.resumed"
  | "subscription.cancelled"
  | "subscription.past_due"
  | "subscription.renewed"
  | "subscription.trial_will_end"
  | "invoice.reminder"
  | "invoice.uncollectible"
  | "invoice.payment_failed"

const DAY_SECONDS = 86_400

/** The name every trigger's clock carries, so the trigger can tell its own clocks from the merchant's. */
const TRIGGER_CLOCK_NAME = "Triggered subscription"

/**
 * How many of its own clocks the trigger keeps: the newest, to read back what recent triggers made.
 * Without a bound a developer's hundredth trigger would meet the clocks' limit; the merchant's own
 * clocks are never touched.
 */
export const KEPT_TRIGGER_CLOCKS = 20

/** Deletes the trigger's oldest clocks (with their objects) until a new one keeps it within its bound. */
const makeRoomForClock = (run: TriggerRun) =>
  Effect.gen(function*() {
    // Newest first: what lies past the bound, less one for the clock about to be made, goes.
    const own = (yield* listTestClocks(run.caller)).filter((clock) => clock.name === TRIGGER_CLOCK_NAME)
    yield* Effect.forEach(own.slice(KEPT_TRIGGER_CLOCKS - 1), (clock) => deleteTestClock(run.caller, clock.id), { discard: true })
  })

/**
 * The objects a subscription trigger made, gathered as each step makes them (a renewal's payment
 * comes from the scheduler's tick, read back from the subscription), so the answer names them all.
 */
class Made {
  readonly objects: Array<TriggeredObject> = []
  add(type: TriggeredObject["type"], id: string | null) {
    if (id !== null && !this.objects.some((object) => object.type === type && object.id === id)) this.objects.push({ type, id })
  }
}

/**
 * A monthly subscription on a fresh test clock standing at now (its own time, so moving it never
 * touches another object), created as the create endpoint creates one: `invoice.created` at once, or
 * a trial when `trialDays` is given.
 */
const subscriptionOnClock = (run: TriggerRun, made: Made, trialDays: number | null) =>
  Effect.gen(function*() {
    const currency = yield* triggerCurrency(run.caller)
    yield* makeRoomForClock(run)
    const clock = yield* createTestClock(run.caller, { frozenTime: fromSeconds(toSeconds(yield* now)), name: TRIGGER_CLOCK_NAME })
    made.add("test_clock", clock.id)
    const { subscription, latest } = yield* createSubscription(run.caller, {
      externalReference: yield* triggerReference("trigger_sub"),
      billingCycle: "monthly",
      currency,
      amount: TRIGGER_AMOUNT,
      customerEmail: "trigger@example.com",
      customerName: "Sandbox Trigger",
      description: "Triggered sandbox subscription",
      ...REDIRECT_ADDRESSES,
      ipnUrl: run.ipnUrl,
      metadata: {},
      allowPaymentMethods: [],
      startsAt: null,
      testClockId: clock.id,
      trialDays
    })
    made.add("subscription", subscription.id)
    made.add("payment", latest?.trxId ?? null)
    return { clockId: clock.id, subscriptionId: subscription.id, firstTrxId: latest?.trxId ?? null }
  })

/** The subscription's newest invoice's payment, paid as the sandbox simulator pays one. */
const payLatestInvoice = (run: TriggerRun, made: Made, subscriptionId: string) =>
  Effect.gen(function*() {
    const { invoices } = yield* retrieveSubscription(run.caller, subscriptionId)
    const trxId = invoices[0]?.trxId ?? null
    if (trxId === null) return yield* ValidationFailed.field("event", "The subscription has no invoice to pay.")
    made.add("payment", trxId)
    yield* simulatePayment(run.caller, trxId, "paid")
  })

/** Created and its first invoice paid: `subscription.activated` and `invoice.paid`. */
const activeSubscription = (run: TriggerRun, made: Made) =>
  Effect.gen(function*() {
    const created = yield* subscriptionOnClock(run, made, null)
    yield* payLatestInvoice(run, made, created.subscriptionId)
    return created
  })

const advanceTo = (run: TriggerRun, clockId: string, to: Instant) => advanceTestClock(run.caller, clockId, plusSeconds(to, 1))

/** Active, then its clock moved to the period's end with the renewal unpaid: `invoice.created`, `subscription.past_due`, dunning begun. */
const pastDueSubscription = (run: TriggerRun, made: Made) =>
  Effect.gen(function*() {
    const active = yield* activeSubscription(run, made)
    const { subscription } = yield* retrieveSubscription(run.caller, active.subscriptionId)
    const due = subscription.currentPeriodEnd
    if (due === null) return yield* ValidationFailed.field("event", "The subscription did not become active.")
    yield* advanceTo(run, active.clockId, due)
    return { ...active, due }
  })

/**
 * The first of the merchant's sandbox gateways for the trigger's currency whose plugin makes saved
 * test methods (the simulator's `testMethod`), asked before anything is made so a refusal leaves nothing behind.
 */
const testMethodGateway = (run: TriggerRun) =>
  Effect.gen(function*() {
    const { eligible } = yield* checkoutTerms(run.caller, yield* triggerCurrency(run.caller), TRIGGER_AMOUNT)
    for (const gateway of eligible) {
      const callee = yield* gatewayCallee(gateway)
      if (callee.plugin.testMethods) return { gatewayId: gateway.id, ...callee }
    }
    return yield* ValidationFailed.field(
      "event",
      "invoice.payment_failed follows a declined renewal charge of a saved method, and none of the merchant's sandbox gateways makes a saved test method " +
        "(the sandbox simulator does): activate a sandbox gateway of the simulator first."
    )
  })

/**
 * Active with a saved test method that declines (the gateway's own, attached as a checkout or a
 * setup attaches one), then its clock moved past the period's end: the scheduler's renewal charge
 * is declined, and it sends `invoice.payment_failed` and `subscription.past_due`.
 */
const declinedRenewal = (run: TriggerRun, made: Made) =>
  Effect.gen(function*() {
    const gateway = yield* testMethodGateway(run)
    const active = yield* activeSubscription(run, made)
    const report = yield* gateway.plugin.testMethod({
      kind: "declines",
      testId: yield* (yield* Ids).uuid,
      environment: run.caller.environment,
      gateway: gateway.ref,
      config: gateway.config
    })
    const due = yield* Effect.flatMap(Transactor, ({ withTransaction }) =>
      withTransaction(Effect.gen(function*() {
        const locked = yield* (yield* SubscriptionRepository).findByIdForUpdate(active.subscriptionId)
        if (Option.isNone(locked) || locked.value.currentPeriodEnd === null) return undefined
        yield* replaceSavedMethod(locked.value, gateway.gatewayId, report, yield* now)
        return locked.value.currentPeriodEnd
      })))
    if (due === undefined) return yield* ValidationFailed.field("event", "The subscription did not become active.")
    yield* advanceTo(run, active.clockId, due)
  })

/** A dunning step of the merchant's billing settings, `days` after the renewal fell due. */
const afterDue = (run: TriggerRun, made: Made, days: (settings: { readonly reminderDays: ReadonlyArray<number>; readonly graceDays: number }) => number | undefined, missing: string) =>
  Effect.gen(function*() {
    const settings = yield* billingSettingsOf(run.caller.merchant.id)
    const step = days(settings)
    if (step === undefined) return yield* ValidationFailed.field("event", missing)
    const pastDue = yield* pastDueSubscription(run, made)
    yield* advanceTo(run, pastDue.clockId, plusSeconds(pastDue.due, step * DAY_SECONDS))
  })

/**
 * Every subscription event by the flows that send it: the API's use cases (create, pay through the
 * simulator, update, pause, resume, cancel) and the scheduler's own tick run by advancing a test
 * clock (renewals, past_due, trial notices, dunning reminders and the grace period's end).
 */
export const triggerSubscriptionEvent = (run: TriggerRun, event: SubscriptionTrigger) =>
  Effect.gen(function*() {
    const made = new Made()
    switch (event) {
      case "invoice.created":
        yield* subscriptionOnClock(run, made, null)
        break
      case "invoice.paid":
      case "subscription.activated":
        yield* activeSubscription(run, made)
        break
      case "subscription.updated": {
        const { subscriptionId } = yield* activeSubscription(run, made)
        yield* updateSubscription(run.caller, subscriptionId, { amount: TRIGGER_NEW_AMOUNT, billingCycle: undefined, proration: "none" })
        break
      }
      case "subscription.paused":
      case "subscription.resumed": {
        const { subscriptionId } = yield* activeSubscription(run, made)
        yield* pauseSubscription(run.caller, subscriptionId, null)
        if (event === "subscription.resumed") yield* resumeSubscription(run.caller, subscriptionId)
        break
      }
      case "subscription.cancelled": {
        const { subscriptionId } = yield* activeSubscription(run, made)
        yield* cancelSubscription(run.caller, subscriptionId, false)
        break
      }
      case "subscription.past_due":
        yield* pastDueSubscription(run, made)
        break
      case "subscription.renewed": {
        const { subscriptionId } = yield* pastDueSubscription(run, made)
        yield* payLatestInvoice(run, made, subscriptionId)
        break
      }
      case "subscription.trial_will_end": {
        // One day of trial before the notice is due, so the clock moves to it.
        const created = yield* subscriptionOnClock(run, made, TRIAL_NOTICE_DAYS + 1)
        const { subscription } = yield* retrieveSubscription(run.caller, created.subscriptionId)
        if (subscription.trialNoticeAt === null) return yield* ValidationFailed.field("event", "The trial has no notice due.")
        yield* advanceTo(run, created.clockId, subscription.trialNoticeAt)
        break
      }
      case "invoice.reminder":
        yield* afterDue(
          run,
          made,
          (settings) => settings.reminderDays[0],
          "invoice.reminder is sent on the days the merchant's billing settings name, and they name none: set reminder_days (PUT /api/v1/billing-settings) first."
        )
        break
      case "invoice.uncollectible":
        yield* afterDue(run, made, (settings) => settings.graceDays, "The billing settings give no grace period.")
        break
      case "invoice.payment_failed":
        yield* declinedRenewal(run, made)
        break
    }
    return made.objects as ReadonlyArray<TriggeredObject>
  })

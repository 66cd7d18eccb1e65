import { type Instant, plusSeconds } from "../shared/instant.js"
import type { BillingSettings, DunningFinalAction } from "./billing-settings.js"
import type { Dunning } from "./dunning-state.js"
import type { Subscription, SubscriptionChange } from "./subscription.js"

/**
 * The pure rules of a dunning campaign: when each step falls, and which step is due. lifecycle.ts's
 * planDue asks `planDunningDue`; dunning.ts carries the answer out.
 */

const SECONDS_PER_DAY = 86_400

export const dayAfter = (start: Instant, days: number): Instant => plusSeconds(start, days * SECONDS_PER_DAY)

/** When the step after `step` reminders falls: the next reminder's day, else the grace period's end. */
export const stepTime = (dunning: Pick<Dunning, "startedAt" | "reminderDays" | "graceDays">, step: number): Instant => {
  const day = dunning.reminderDays[step]
  return dayAfter(dunning.startedAt, day ?? dunning.graceDays)
}

/**
 * A campaign beginning at `at` on the merchant's settings. Reminders on or after the grace period's
 * end would never be sent before the final action, so they are left out (the API refuses them; this
 * guards settings stored before that rule).
 */
export const newDunning = (settings: BillingSettings, at: Instant): Dunning => {
  const reminderDays = settings.reminderDays.filter((day) => day < settings.graceDays)
  const terms = { startedAt: at, reminderDays, graceDays: settings.graceDays }
  return { ...terms, step: 0, nextAt: stepTime(terms, 0), finalAction: settings.finalAction }
}

/** What ends a subscription's campaign, if it has one, in a change: a payment, a cancel, a new period, or its own final action. */
export const endDunning = (subscription: Pick<Subscription, "dunning">): SubscriptionChange =>
  subscription.dunning === null ? {} : { dunning: null }

export type DunningDuePlan =
  | {
    readonly _tag: "DunningReminder"
    /** The reminder's number, from 1. */
    readonly step: number
    readonly dunning: Dunning
    readonly change: SubscriptionChange
  }
  | {
    readonly _tag: "DunningFinal"
    readonly action: DunningFinalAction
    readonly dunning: Dunning
    readonly change: SubscriptionChange
  }

/**
 * The dunning step due at `at`, if any: a past_due subscription whose campaign's next step has come.
 * Reminders come first, in order; after the last, the final action: `cancel` cancels the subscription
 * as an immediate cancel does (at the grace period's end), `stay_past_due` ends the campaign and
 * leaves the subscription past_due, its invoice still payable through renew.
 */
export const planDunningDue = (subscription: Subscription, at: Instant): DunningDuePlan | undefined => {
  const dunning = subscription.dunning
  if (subscription.status !== "past_due" || dunning === null || dunning.nextAt > at) return undefined
  if (dunning.step < dunning.reminderDays.length) {
    const step = dunning.step + 1
    const next: Dunning = { ...dunning, step, nextAt: stepTime(dunning, step) }
    return { _tag: "DunningReminder", step, dunning, change: { dunning: next } }
  }
  return dunning.finalAction === "cancel"
    ? {
      _tag: "DunningFinal",
      action: "cancel",
      dunning,
      change: { status: "cancelled", cancelledAt: dunning.nextAt, nextBillingAt: null, dunning: null }
    }
    : { _tag: "DunningFinal", action: "stay_past_due", dunning, change: { dunning: null } }
}

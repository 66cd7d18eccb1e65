import * as Schema from "effect/Schema"
import { type BillingSettings, DunningFinalAction, MAX_BILLING_DAYS } from "../../../core/subscriptions/billing-settings.js"
import { MAX_BILLING_STEPS } from "../../../core/subscriptions/billing-settings-admin.js"
import { boolean, integer, integerArray, oneOf } from "./field-rules.js"
import { bodyContract } from "./read-body.js"

export const replaceBillingSettingsBody = bodyContract("ReplaceBillingSettingsRequest",
  "The merchant's billing settings as a whole: a field left out takes its default. Dunning campaigns already running keep the terms they began with.", {
    retry_hours: integerArray({
      maxItems: MAX_BILLING_STEPS,
      description: `When a declined renewal charge of a saved method is tried again: hours after the renewal, ascending, each at most ${MAX_BILLING_DAYS * 24} (default 24, 72, 120, 168, 216, 264, 336).`
    }),
    reminder_days: integerArray({
      maxItems: MAX_BILLING_STEPS,
      description: `Dunning reminders of an unpaid renewal invoice: days after it fell due, ascending, each before grace_days ends (default 1, 3, 7).`
    }),
    grace_days: integer({ min: 1, max: MAX_BILLING_DAYS, description: "Days the subscription stays past_due, unpaid, before the final action (default 14)." }),
    final_action: oneOf(DunningFinalAction.literals, { description: "cancel (the default): the subscription is cancelled; stay_past_due: dunning ends and it stays past_due." }),
    portal_cancellation: boolean({ description: "Whether a customer may cancel at period end from the customer portal (default true)." })
  })

export const BillingSettingsResource = Schema.Struct({
  retry_hours: Schema.Array(Schema.Number),
  reminder_days: Schema.Array(Schema.Number),
  grace_days: Schema.Number,
  final_action: DunningFinalAction,
  portal_cancellation: Schema.Boolean
}).annotations({ identifier: "BillingSettings", description: "How a merchant's subscriptions collect revenue: charge retries, dunning reminders, grace and final action, portal cancellation. One set for both environments." })

export const BillingSettingsEnvelope = Schema.Struct({ data: BillingSettingsResource }).annotations({ identifier: "BillingSettingsEnvelope" })

export const billingSettingsJson = (settings: BillingSettings) => ({
  retry_hours: settings.retryHours,
  reminder_days: settings.reminderDays,
  grace_days: settings.graceDays,
  final_action: settings.finalAction,
  portal_cancellation: settings.portalCancellation
})

/** The request's fields as the core names them. */
export const billingSettingsInput = (body: {
  readonly retry_hours: ReadonlyArray<number> | undefined
  readonly reminder_days: ReadonlyArray<number> | undefined
  readonly grace_days: number | undefined
  readonly final_action: DunningFinalAction | undefined
  readonly portal_cancellation: boolean | undefined
}) => ({
  retryHours: body.retry_hours,
  reminderDays: body.reminder_days,
  graceDays: body.grace_days,
  finalAction: body.final_action,
  portalCancellation: body.portal_cancellation
})

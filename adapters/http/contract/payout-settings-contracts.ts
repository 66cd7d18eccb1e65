import * as Schema from "effect/Schema"
import { MAX_DAYS, PayoutSchedule, delayDaysIn, type PayoutSettings } from "../../../core/balances/payout-settings.js"
import { environments } from "../../../core/shared/environment.js"
import { amount, integer, oneOf } from "./field-rules.js"
import { jsonAmount } from "./json-codec.js"
import { bodyContract } from "./read-body.js"
import { Money } from "./value-schemas.js"

export const replacePayoutSettingsBody = bodyContract("ReplacePayoutSettingsRequest",
  "The merchant's payout settings as a whole: a field left out takes its default.", {
    payout_delay_days: integer({ min: 0, max: MAX_DAYS, description: "Days a payment's net stays pending; absent: the environment's default (sandbox 0, production 2)." }),
    reserve_percent: amount({ description: "Percent of each payment's net held as a rolling reserve: 0 (the default) to 100, at most 2 decimals." }),
    reserve_days: integer({ min: 0, max: MAX_DAYS, description: "Days each reserve hold lasts (default 0: no reserve is held)." }),
    payout_schedule: oneOf(PayoutSchedule.literals, { description: "manual (the default), daily, weekly (Mondays) or monthly (the 1st), UTC." }),
    payout_minimum: amount({ description: "The least an automatic payout moves, in each currency's own units (default 0)." })
  })

const delayDays = Schema.Struct({
  sandbox: Schema.Number,
  production: Schema.Number
}).annotations({ description: "The payout delay in effect in each environment, in days." })

export const PayoutSettingsResource = Schema.Struct({
  payout_delay_days: Schema.NullOr(Schema.Number).annotations({ description: "As set; null: each environment's default." }),
  payout_delay_days_in_effect: delayDays,
  reserve_percent: Money,
  reserve_days: Schema.Number,
  payout_schedule: PayoutSchedule,
  payout_minimum: Money
}).annotations({ identifier: "PayoutSettings", description: "When a merchant's money becomes payable, what is held back, and when it leaves by itself." })

export const PayoutSettingsEnvelope = Schema.Struct({ data: PayoutSettingsResource }).annotations({ identifier: "PayoutSettingsEnvelope" })

export const payoutSettingsJson = (settings: PayoutSettings) => ({
  payout_delay_days: settings.payoutDelayDays,
  payout_delay_days_in_effect: Object.fromEntries(environments.map((environment) => [environment, delayDaysIn(settings, environment)])) as {
    readonly sandbox: number
    readonly production: number
  },
  reserve_percent: jsonAmount(settings.reservePercent),
  reserve_days: settings.reserveDays,
  payout_schedule: settings.payoutSchedule,
  payout_minimum: jsonAmount(settings.payoutMinimum)
})

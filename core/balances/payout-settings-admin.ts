import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { requireMerchant } from "../merchants/merchant-admin.js"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { Amount, ATOMS_PER_UNIT, SCALE } from "../money/amount.js"
import { type AmountInput, parseAmount } from "../money/parse.js"
import type { MerchantId } from "../shared/ids.js"
import { now } from "../shared/instant.js"
import { ValidationFailed } from "../shared/validation.js"
import { defaultPayoutSettings, MAX_DAYS, type PayoutSchedule, type PayoutSettings } from "./payout-settings.js"
import { PayoutSettingsRepository } from "./payout-settings-repository.js"

/** An operator's settings, money fields as their raw JSON text; an absent field takes its default. */
export interface PayoutSettingsInput {
  readonly payoutDelayDays?: number
  readonly reservePercent?: AmountInput
  readonly reserveDays?: number
  readonly payoutSchedule?: PayoutSchedule
  readonly payoutMinimum?: AmountInput
}

const MAX_RESERVE_PERCENT = 100n * ATOMS_PER_UNIT
const days = (value: number | undefined) => value === undefined || (Number.isSafeInteger(value) && value >= 0 && value <= MAX_DAYS)

/** The settings the input names, every rule broken told at once. */
export const parsePayoutSettings = (input: PayoutSettingsInput) => {
  const errors: Record<string, Array<string>> = {}
  let reservePercent = defaultPayoutSettings.reservePercent
  let payoutMinimum = defaultPayoutSettings.payoutMinimum
  if (input.reservePercent !== undefined) {
    const parsed = parseAmount(input.reservePercent, 2, { allowZero: true })
    if (Either.isLeft(parsed) || parsed.right > MAX_RESERVE_PERCENT) {
      errors["reservePercent"] = ["The reserve percent must be between 0 and 100, with at most 2 decimal places."]
    } else reservePercent = parsed.right
  }
  if (input.payoutMinimum !== undefined) {
    // Applied in each currency's own units, as the fixed fee is; finer digits than a currency has simply never match a payout exactly.
    const parsed = parseAmount(input.payoutMinimum, SCALE, { allowZero: true })
    if (Either.isLeft(parsed)) errors["payoutMinimum"] = [parsed.left.message]
    else payoutMinimum = parsed.right
  }
  if (!days(input.payoutDelayDays)) errors["payoutDelayDays"] = [`The payout delay must be a whole number of days from 0 to ${MAX_DAYS}.`]
  if (!days(input.reserveDays)) errors["reserveDays"] = [`The reserve days must be a whole number from 0 to ${MAX_DAYS}.`]
  if (Object.keys(errors).length > 0) {
    const money = errors["reservePercent"] !== undefined || errors["payoutMinimum"] !== undefined
    return Effect.fail(new ValidationFailed({ errors, code: money ? "INVALID_AMOUNT" : "VALIDATION_FAILED" }))
  }
  return Effect.succeed<PayoutSettings>({
    payoutDelayDays: input.payoutDelayDays ?? null,
    reservePercent: Amount(reservePercent),
    reserveDays: input.reserveDays ?? 0,
    payoutSchedule: input.payoutSchedule ?? "manual",
    payoutMinimum: Amount(payoutMinimum)
  })
}

/** The caller's own payout settings, as the operator set them (read-only for the merchant). */
export const callerPayoutSettings = (scope: MerchantScope) =>
  Effect.flatMap(PayoutSettingsRepository, (settings) => settings.get(scope.merchant.id))

/** The merchant's payout settings (its defaults when none were set); MerchantNotFound for no such merchant. */
export const payoutSettingsOf = (merchantId: MerchantId) =>
  Effect.zipRight(requireMerchant(merchantId), Effect.flatMap(PayoutSettingsRepository, (settings) => settings.get(merchantId)))

/**
 * Replaces the merchant's payout settings as a whole: what the input leaves out takes its default
 * (no payout delay given: the environment's). Applies to payments completed from now on; holds
 * already made keep their release time.
 */
export const replacePayoutSettings = (merchantId: MerchantId, input: PayoutSettingsInput) =>
  Effect.gen(function*() {
    yield* requireMerchant(merchantId)
    const settings = yield* parsePayoutSettings(input)
    yield* (yield* PayoutSettingsRepository).put(merchantId, settings, yield* now)
    return settings
  })

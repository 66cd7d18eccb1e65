import * as Effect from "effect/Effect"
import { requireMerchant } from "../merchants/merchant-admin.js"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import type { MerchantId } from "../shared/ids.js"
import { now } from "../shared/instant.js"
import { ValidationFailed } from "../shared/validation.js"
import {
  type BillingSettings,
  BillingSettingsRepository,
  defaultBillingSettings,
  type DunningFinalAction,
  MAX_BILLING_DAYS
} from "./billing-settings.js"

/** A merchant's (or an operator's) billing settings as sent; an absent field takes its default. */
export interface BillingSettingsInput {
  readonly retryHours?: ReadonlyArray<number>
  readonly reminderDays?: ReadonlyArray<number>
  readonly graceDays?: number
  readonly finalAction?: DunningFinalAction
  readonly portalCancellation?: boolean
}

/** At most this many retries or reminders: more would only pester the customer. */
export const MAX_BILLING_STEPS = 10
const MAX_RETRY_HOURS = MAX_BILLING_DAYS * 24

/** Why a schedule is refused, or undefined: positive whole numbers, strictly ascending, within bounds. */
const scheduleProblem = (list: ReadonlyArray<number>, what: string, unit: string, max: number): string | undefined => {
  if (list.length > MAX_BILLING_STEPS) return `The ${what} may have at most ${MAX_BILLING_STEPS} entries.`
  if (list.some((value) => !Number.isSafeInteger(value) || value < 1)) return `The ${what} must be positive whole numbers of ${unit}.`
  if (list.some((value) => value > max)) return `The ${what} must each be at most ${max} ${unit}.`
  if (list.some((value, i) => i > 0 && value <= list[i - 1]!)) return `The ${what} must be in ascending order, each once.`
  return undefined
}

/** The settings the input names, every rule broken told at once (422). */
export const parseBillingSettings = (input: BillingSettingsInput): Effect.Effect<BillingSettings, ValidationFailed> => {
  const settings: BillingSettings = {
    retryHours: input.retryHours ?? defaultBillingSettings.retryHours,
    reminderDays: input.reminderDays ?? defaultBillingSettings.reminderDays,
    graceDays: input.graceDays ?? defaultBillingSettings.graceDays,
    finalAction: input.finalAction ?? defaultBillingSettings.finalAction,
    portalCancellation: input.portalCancellation ?? defaultBillingSettings.portalCancellation
  }
  const errors: Record<string, Array<string>> = {}
  const retry = scheduleProblem(settings.retryHours, "retry hours", "hours", MAX_RETRY_HOURS)
  if (retry !== undefined) errors["retryHours"] = [retry]
  const graceOk = Number.isSafeInteger(settings.graceDays) && settings.graceDays >= 1 && settings.graceDays <= MAX_BILLING_DAYS
  if (!graceOk) errors["graceDays"] = [`The grace days must be a whole number from 1 to ${MAX_BILLING_DAYS}.`]
  const reminders = scheduleProblem(settings.reminderDays, "reminder days", "days", MAX_BILLING_DAYS)
  if (reminders !== undefined) errors["reminderDays"] = [reminders]
  else if (graceOk && settings.reminderDays.some((day) => day >= settings.graceDays)) {
    errors["reminderDays"] = [`Each reminder must come before the grace period ends (day ${settings.graceDays}): the final action follows then.`]
  }
  return Object.keys(errors).length > 0
    ? Effect.fail(new ValidationFailed({ errors, code: "VALIDATION_FAILED" }))
    : Effect.succeed(settings)
}

const stored = (merchantId: MerchantId) => Effect.flatMap(BillingSettingsRepository, (repo) => repo.get(merchantId))

/** The caller's own billing settings (the defaults when never set). */
export const callerBillingSettings = (scope: MerchantScope) => stored(scope.merchant.id)

/** Replaces the settings as a whole (an absent field takes its default); running campaigns keep theirs. */
const replace = (merchantId: MerchantId, input: BillingSettingsInput) =>
  Effect.gen(function*() {
    const settings = yield* parseBillingSettings(input)
    yield* (yield* BillingSettingsRepository).put(merchantId, settings, yield* now)
    return settings
  })

/** The merchant replaces its own settings (both environments: one set per merchant). */
export const replaceCallerBillingSettings = (scope: MerchantScope, input: BillingSettingsInput) => replace(scope.merchant.id, input)

/** An operator reads a merchant's settings; MerchantNotFound for no such merchant. */
export const billingSettingsOfMerchant = (merchantId: MerchantId) => Effect.zipRight(requireMerchant(merchantId), stored(merchantId))

/** An operator replaces a merchant's settings; MerchantNotFound for no such merchant. */
export const replaceMerchantBillingSettings = (merchantId: MerchantId, input: BillingSettingsInput) =>
  Effect.zipRight(requireMerchant(merchantId), replace(merchantId, input))

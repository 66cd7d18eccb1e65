import * as Effect from "effect/Effect"
import { MerchantCurrencyRepository } from "../merchants/currency-repository.js"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { now } from "../shared/instant.js"
import { ValidationFailed } from "../shared/validation.js"
import { Ids } from "../signing/random-ids.js"
import { SecretBox } from "../signing/secret-box.js"
import {
  MAX_ACCOUNT_HOLDER_LENGTH,
  MAX_PAYOUT_DESTINATIONS,
  maskIban,
  type PayoutDestination,
  PayoutDestinationLimitReached
} from "./payout-destination.js"
import { PayoutDestinationRepository } from "./payout-destination-repository.js"

export interface NewBankAccount {
  readonly accountHolder: string
  /** Checked and normalised by the edge (spaces removed, upper case): the core keeps it as given. */
  readonly iban: string
  readonly bic: string | null
  readonly currency: string
}

/** The electronic form every edge hands over; a guard, since the check-digit rules live with the edge's IBAN library. */
const ELECTRONIC_IBAN = /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/

/**
 * Adds a bank account the merchant's payouts may go to, in the caller's environment: the holder's
 * name within its length, the currency one of the merchant's, and no more than the limit kept. The
 * IBAN is sealed before it reaches the store, and only its masked form is answered.
 */
export const createPayoutDestination = (scope: MerchantScope, request: NewBankAccount) =>
  Effect.gen(function*() {
    const errors: Record<string, Array<string>> = {}
    const holder = request.accountHolder.trim()
    if (holder.length === 0 || holder.length > MAX_ACCOUNT_HOLDER_LENGTH) {
      errors["accountHolder"] = [`The account holder must be 1 to ${MAX_ACCOUNT_HOLDER_LENGTH} characters.`]
    }
    if (!ELECTRONIC_IBAN.test(request.iban)) errors["iban"] = ["The iban field must be a valid IBAN."]
    const currencies = yield* (yield* MerchantCurrencyRepository).list(scope.merchant.id)
    if (!currencies.includes(request.currency)) {
      errors["currency"] = [`The currency ${request.currency} is not one of the merchant's currencies (${currencies.join(", ") || "none enabled"}).`]
    }
    if (Object.keys(errors).length > 0) {
      // INVALID_CURRENCY when the currency alone is wrong, as initiate answers an unknown currency.
      const code = Object.keys(errors).length === 1 && errors["currency"] !== undefined ? "INVALID_CURRENCY" : "VALIDATION_FAILED"
      return yield* new ValidationFailed({ errors, code })
    }
    const destination: PayoutDestination = {
      id: `pd_${(yield* (yield* Ids).uuid).replaceAll("-", "")}`,
      merchantId: scope.merchant.id,
      environment: scope.environment,
      type: "bank_account",
      accountHolder: holder,
      ibanMasked: maskIban(request.iban),
      sealedIban: (yield* SecretBox).seal(request.iban),
      bic: request.bic,
      accountId: null,
      currency: request.currency,
      createdAt: yield* now
    }
    return yield* keep(destination)
  })

const keep = (destination: PayoutDestination) =>
  Effect.gen(function*() {
    const created = yield* (yield* PayoutDestinationRepository).create(destination, MAX_PAYOUT_DESTINATIONS)
    if (!created) return yield* new PayoutDestinationLimitReached({ limit: MAX_PAYOUT_DESTINATIONS })
    return destination
  })

export interface NewStripeAccount {
  readonly accountId: string
  readonly currency: string
}

/** Stripe's connected account ids: `acct_` and letters and digits. */
const STRIPE_ACCOUNT_ID = /^acct_[A-Za-z0-9]{1,250}$/

/**
 * Adds a Stripe connected account (Stripe Connect) the merchant's payouts may go to, in the caller's
 * environment: paid by the Stripe plugin's transfers. The id is no secret; whether it is one of the
 * platform's connected accounts is Stripe's to say when a transfer is made.
 */
export const createStripeAccountDestination = (scope: MerchantScope, request: NewStripeAccount) =>
  Effect.gen(function*() {
    if (!STRIPE_ACCOUNT_ID.test(request.accountId)) {
      return yield* ValidationFailed.field("accountId", "The account id must be a Stripe connected account id (acct_...).")
    }
    const currencies = yield* (yield* MerchantCurrencyRepository).list(scope.merchant.id)
    if (!currencies.includes(request.currency)) {
      return yield* ValidationFailed.field(
        "currency",
        `The currency ${request.currency} is not one of the merchant's currencies (${currencies.join(", ") || "none enabled"}).`,
        "INVALID_CURRENCY"
      )
    }
    return yield* keep({
      id: `pd_${(yield* (yield* Ids).uuid).replaceAll("-", "")}`,
      merchantId: scope.merchant.id,
      environment: scope.environment,
      type: "stripe_account",
      accountHolder: "",
      ibanMasked: "",
      sealedIban: "",
      bic: null,
      accountId: request.accountId,
      currency: request.currency,
      createdAt: yield* now
    })
  })

/** The caller's destinations in its environment, oldest first. */
export const listPayoutDestinations = (scope: MerchantScope) =>
  Effect.flatMap(PayoutDestinationRepository, (repository) => repository.list(scope.merchant.id, scope.environment))

/** Deletes one of the caller's destinations; false when the caller has none by that id in its environment. */
export const deletePayoutDestination = (scope: MerchantScope, id: string) =>
  Effect.flatMap(PayoutDestinationRepository, (repository) =>
    Effect.flatMap(now, (at) => repository.remove(scope.merchant.id, scope.environment, id, at)))

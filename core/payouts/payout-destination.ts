import * as Schema from "effect/Schema"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"

/** Where a merchant's payouts go: a bank account (IBAN), or a Stripe connected account (Stripe Connect). */
export const PayoutDestinationType = Schema.Literal("bank_account", "stripe_account")
export type PayoutDestinationType = typeof PayoutDestinationType.Type

/**
 * A payout destination as the store keeps it and the API shows it. The full IBAN is only ever
 * held sealed (`sealedIban`): everything shown comes from the masked form, kept in clear beside it
 * so a list needs no master key. A Stripe account has no holder, IBAN or BIC (those are '' and null):
 * its `accountId` (acct_...) is what the transfer names, and is no secret.
 */
export interface PayoutDestination {
  readonly id: string
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly type: PayoutDestinationType
  readonly accountHolder: string
  readonly ibanMasked: string
  readonly sealedIban: string
  readonly bic: string | null
  /** The Stripe connected account of a `stripe_account`; null for a bank account. */
  readonly accountId: string | null
  readonly currency: string
  readonly createdAt: Instant
}

/**
 * How many destinations a merchant keeps per environment: a platform pays to a handful of accounts;
 * more is likelier a script gone wrong than a business need.
 */
export const MAX_PAYOUT_DESTINATIONS = 20

/** SEPA's limit for a creditor's name (pain.001 `Nm`, Max140Text), which a payout file will carry. */
export const MAX_ACCOUNT_HOLDER_LENGTH = 140

export class PayoutDestinationLimitReached extends Schema.TaggedError<PayoutDestinationLimitReached>()("PayoutDestinationLimitReached", {
  limit: Schema.Number
}) {}

/**
 * The IBAN as shown: its country and check digits, then every character hidden but the last four,
 * in the groups of four it is printed in ("DE89 **** **** **** **30 00"). The merchant recognises
 * its account; the text is of no use to anyone else.
 */
export const maskIban = (iban: string): string => {
  const visibleTail = Math.max(iban.length - 4, 4)
  const masked = [...iban].map((character, index) => (index < 4 || index >= visibleTail ? character : "*")).join("")
  return masked.replace(/(.{4})(?=.)/g, "$1 ")
}

import * as Schema from "effect/Schema"
import { MAX_ACCOUNT_HOLDER_LENGTH } from "../../../core/payouts/payout-destination.js"
import { bic, iban } from "./bank-account-fields.js"
import { dataOf, listOf } from "./envelopes.js"
import { currencyCode, oneOf, string } from "./field-rules.js"
import { bodyContract, type ReadBody } from "./read-body.js"
import { Timestamp } from "./value-schemas.js"

export const createPayoutDestinationBody = bodyContract(
  "CreatePayoutDestinationRequest",
  "A bank account (`bank_account`: account_holder, iban, bic) or a Stripe connected account (`stripe_account`: account_id) the merchant's payouts may go to.",
  {
    type: oneOf(["bank_account", "stripe_account"], { required: true, description: "A bank account, or a Stripe connected account paid by Stripe Connect transfers." }),
    account_holder: string({
      max: MAX_ACCOUNT_HOLDER_LENGTH,
      description: "Required for a bank account: the name the account is held in.",
      examples: ["Example Shop GmbH"]
    }),
    iban: iban({
      description: "Required for a bank account. Spaces and case do not matter; checked for its country's length and its check digits, stored sealed and never shown whole again.",
      examples: ["DE89 3704 0044 0532 0130 00"]
    }),
    bic: bic({ description: "A bank account's BIC (8 or 11 characters), when the rail needs it.", examples: ["COBADEFFXXX"] }),
    account_id: string({ max: 255, description: "Required for a Stripe connected account: its id.", examples: ["acct_1Nv0FGQ9RKHgCVdK"] }),
    currency: currencyCode({ required: true, description: "One of the merchant's currencies.", examples: ["EUR"] })
  }
)

/** The fields each type requires beside `type` and `currency`. */
const REQUIRED_FOR_TYPE = {
  bank_account: ["account_holder", "iban"],
  stripe_account: ["account_id"]
} as const

/**
 * Says each field the body's type requires missing when it is absent, or blank text its own rule let
 * through (a rule that refused the value has said why already): the one rule for the API and the
 * dashboard's form. A body of no known type is read as a bank account's, the first kind there was.
 */
export const requireFieldsOfType = (read: ReadBody<typeof createPayoutDestinationBody.fields>) => {
  for (const field of REQUIRED_FOR_TYPE[read.values.type ?? "bank_account"]) {
    const value: unknown = read.values[field]
    if (read.fields.present(field, {}) === undefined || (typeof value === "string" && value.trim() === "")) {
      read.fields.fail(field, `The ${field.replaceAll("_", " ")} field is required.`)
    }
  }
  return read
}

const StripeAccountDestination = Schema.Struct({
  id: Schema.String,
  type: Schema.Literal("stripe_account"),
  account_id: Schema.String.annotations({ examples: ["acct_1Nv0FGQ9RKHgCVdK"] }),
  currency: Schema.String,
  created_at: Timestamp
}).annotations({ identifier: "StripeAccountPayoutDestination", description: "A Stripe connected account payouts are transferred to." })

const BankAccountDestination = Schema.Struct({
  id: Schema.String,
  type: Schema.Literal("bank_account"),
  account_holder: Schema.String,
  iban_masked: Schema.String.annotations({
    description: "The country, the check digits and the last four characters, the rest hidden, grouped by four.",
    examples: ["DE89 **** **** **** **30 00"]
  }),
  bic: Schema.NullOr(Schema.String),
  currency: Schema.String,
  created_at: Timestamp
}).annotations({ identifier: "BankAccountPayoutDestination", description: "A bank account payouts may go to; the full IBAN is never shown." })

const PayoutDestination = Schema.Union(BankAccountDestination, StripeAccountDestination).annotations({
  identifier: "PayoutDestination",
  description: "Where payouts may go."
})

export const PayoutDestinationEnvelope = dataOf(PayoutDestination, "PayoutDestinationAnswer")
export const PayoutDestinationList = listOf(PayoutDestination, "PayoutDestinationList")
export const DeletedPayoutDestination = dataOf(
  Schema.Struct({ id: Schema.String, deleted: Schema.Literal(true) }).annotations({ identifier: "DeletedPayoutDestination" }),
  "DeletedPayoutDestinationAnswer"
)

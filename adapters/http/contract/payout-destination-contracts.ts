import * as Schema from "effect/Schema"
import { MAX_ACCOUNT_HOLDER_LENGTH } from "../../../core/payouts/payout-destination.js"
import { bic, iban } from "./bank-account-fields.js"
import { dataOf, listOf } from "./envelopes.js"
import { currencyCode, oneOf, string } from "./field-rules.js"
import { bodyContract } from "./read-body.js"
import { Timestamp } from "./value-schemas.js"

export const createPayoutDestinationBody = bodyContract("CreatePayoutDestinationRequest", "A bank account the merchant's payouts may go to.", {
  type: oneOf(["bank_account"], { required: true, description: "Only bank accounts for now." }),
  account_holder: string({ required: true, max: MAX_ACCOUNT_HOLDER_LENGTH, description: "The name the account is held in.", examples: ["Example Shop GmbH"] }),
  iban: iban({
    required: true,
    description: "Spaces and case do not matter; checked for its country's length and its check digits, stored sealed and never shown whole again.",
    examples: ["DE89 3704 0044 0532 0130 00"]
  }),
  bic: bic({ description: "The bank's BIC (8 or 11 characters), when the rail needs it.", examples: ["COBADEFFXXX"] }),
  currency: currencyCode({ required: true, description: "One of the merchant's currencies.", examples: ["EUR"] })
})

const PayoutDestination = Schema.Struct({
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
}).annotations({ identifier: "PayoutDestination", description: "Where payouts may go; the full IBAN is never shown." })

export const PayoutDestinationEnvelope = dataOf(PayoutDestination, "PayoutDestinationAnswer")
export const PayoutDestinationList = listOf(PayoutDestination, "PayoutDestinationList")
export const DeletedPayoutDestination = dataOf(
  Schema.Struct({ id: Schema.String, deleted: Schema.Literal(true) }).annotations({ identifier: "DeletedPayoutDestination" }),
  "DeletedPayoutDestinationAnswer"
)

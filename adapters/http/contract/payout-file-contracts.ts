import * as Schema from "effect/Schema"
import { MAX_PLATFORM_ACCOUNT_NAME_LENGTH } from "../../../core/payouts/platform-bank-account.js"
import { bic, iban } from "./bank-account-fields.js"
import { dataOf } from "./envelopes.js"
import { string } from "./field-rules.js"
import { bookCurrencyParameter, bookEnvironmentParameter } from "./ledger-parameters.js"
import type { ListParameter } from "./parameters.js"
import { queryOf } from "./query-contract.js"
import { bodyContract } from "./read-body.js"

/** The manual rail's file (GET /admin/v1/payouts/export) and the platform's bank account it is paid from. */

export const PAYOUT_FILE_FORMATS = ["sepa", "csv"] as const
export type PayoutFileFormat = (typeof PAYOUT_FILE_FORMATS)[number]

const dateParameter: ListParameter<string> = {
  name: "date",
  in: "query",
  required: true,
  description: "The day the payouts were approved, YYYY-MM-DD, in UTC.",
  schema: Schema.String.pipe(Schema.pattern(/^\d{4}-\d{2}-\d{2}$/)).annotations({ examples: ["2026-11-27"] }),
  read: (query) => query.text("date", 10) ?? query.required("date")
}

const formatParameter: ListParameter<PayoutFileFormat> = {
  name: "format",
  in: "query",
  required: false,
  description: "`sepa`: a SEPA credit transfer (pain.001.001.09 XML, EUR only); `csv` (the default): one line per payout, any currency.",
  schema: Schema.Literal(...PAYOUT_FILE_FORMATS),
  read: (query) => query.oneOf("format", PAYOUT_FILE_FORMATS) ?? "csv"
}

export const payoutFileQuery = queryOf({
  date: dateParameter,
  environment: bookEnvironmentParameter,
  currency: bookCurrencyParameter,
  format: formatParameter
})

export const platformBankAccountBody = bodyContract("PlatformBankAccountRequest", "The platform's bank account payouts leave from: the debtor of SEPA files.", {
  name: string({ required: true, max: MAX_PLATFORM_ACCOUNT_NAME_LENGTH, description: "The account holder: the platform's legal name.", examples: ["Example Platform GmbH"] }),
  iban: iban({ required: true, description: "Checked for its country's length and check digits.", examples: ["DE02 1203 0000 0000 2020 51"] }),
  bic: bic({ description: "The bank's BIC, when its bank wants it in the file.", examples: ["BYLADEM1001"] })
})

const Account = Schema.Struct({ name: Schema.String, iban: Schema.String, bic: Schema.NullOr(Schema.String) }).annotations({ identifier: "PlatformBankAccount" })

export const PlatformBankAccount = dataOf(Account, "PlatformBankAccountAnswer")
export const PlatformBankAccountOrNone = dataOf(Schema.NullOr(Account), "PlatformBankAccountOrNoneAnswer")

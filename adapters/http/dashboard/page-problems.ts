import type { ValidationFailed } from "../../../core/shared/validation.js"
import { onTheWire } from "../endpoint/wire-names.js"
import type { ApiError } from "../response/api-error.js"
import { describeError } from "../response/error-table.js"

/**
 * A message as a page's sentence: the contract fixes some messages word for word without a full stop
 * (`Refund amount exceeds the refundable balance`); the API keeps them so, a page ends them, so the
 * sentence after one does not run into it.
 */
const sentence = (text: string): string => (/[.!?]$/.test(text) ? text : `${text}.`)

/**
 * What a page says when a use case refuses: the API's own words for the same refusal (one table,
 * one vocabulary). A refused input's message only says the data was invalid, so its fields'
 * messages stand for it; any other refusal's message says what happened and its fields' messages
 * add the facts (the refundable balance, the subscription's status), so both are said.
 */
export const problemText = (error: ApiError): string => {
  const described = describeError(error)
  const details = Object.values(described.errors ?? {}).flat()
  if (details.length === 0) return sentence(described.message)
  return error._tag === "ValidationFailed" ? details.join(" ") : [sentence(described.message), ...details].join(" ")
}

/**
 * A refused input's messages by field, under the names a form gives its fields: the API body's
 * (`destination_id`, `account_holder`), so a page says each under the field it concerns.
 */
export const fieldProblems = (error: ValidationFailed): Readonly<Record<string, ReadonlyArray<string>>> => onTheWire(error).errors

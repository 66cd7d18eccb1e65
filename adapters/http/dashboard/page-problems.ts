import type { ApiError } from "../response/api-error.js"
import { describeError } from "../response/error-table.js"

/**
 * What a page says when a use case refuses: the API's own words for the same refusal (one table,
 * one vocabulary). A refused input's message only says the data was invalid, so its fields'
 * messages stand for it; any other refusal's message says what happened and its fields' messages
 * add the facts (the refundable balance, the subscription's status), so both are said.
 */
export const problemText = (error: ApiError): string => {
  const described = describeError(error)
  const details = Object.values(described.errors ?? {}).flat()
  if (details.length === 0) return described.message
  return error._tag === "ValidationFailed" ? details.join(" ") : [described.message, ...details].join(" ")
}

import type { ApiError } from "../response/api-error.js"
import { describeError } from "../response/error-table.js"

/**
 * What a page says when a use case refuses: the API's own words for the same refusal (one table,
 * one vocabulary), with the fields' messages when the refusal names fields.
 */
export const problemText = (error: ApiError): string => {
  const described = describeError(error)
  const details = Object.values(described.errors ?? {}).flat()
  return details.length === 0 ? described.message : details.join(" ")
}

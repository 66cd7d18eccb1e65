import type { ValidationFailed } from "../../../core/shared/validation.js"
import type { ApiError } from "../response/api-error.js"
import { describeError } from "../response/error-table.js"
import type { ErrorTag } from "./operation.js"

/**
 * Stand-in fields for any error: the table reads a status and a code off the tag alone (a
 * message may quote a field), so one sample per tag shows what a caller gets.
 */
const SAMPLE = {
  reason: "invalid_credentials",
  status: "disabled",
  errors: {},
  detail: "Unexpected token.",
  resource: "Resource",
  retryAfterSeconds: 1,
  amount: 2_500n,
  held: 1_000n,
  currency: "USD",
  exponent: 2,
  limit: 20,
  limitBytes: 1_048_576,
  allow: ["GET"],
  refRefund: "RF-1",
  externalReference: "plan-1",
  message: "This subscription cannot change this way now."
}

export interface DocumentedError {
  readonly status: number
  readonly errorCode: string
  readonly message: string
}

/** What the error table answers for a tag (and, for ValidationFailed, a code). */
export const documentedError = (tag: ErrorTag, code: ValidationFailed["code"] = "VALIDATION_FAILED"): DocumentedError => {
  const described = describeError({ _tag: tag, ...SAMPLE, code } as unknown as ApiError)
  return { status: described.status, errorCode: described.errorCode, message: described.message }
}

/** Errors grouped by status, each status with one line per distinct code. */
export const byStatus = (errors: ReadonlyArray<DocumentedError>): ReadonlyMap<number, ReadonlyArray<DocumentedError>> => {
  const groups = new Map<number, Array<DocumentedError>>()
  for (const error of errors) {
    const group = groups.get(error.status) ?? []
    if (!group.some((known) => known.errorCode === error.errorCode && known.message === error.message)) group.push(error)
    groups.set(error.status, group)
  }
  return new Map([...groups].sort(([a], [b]) => a - b))
}

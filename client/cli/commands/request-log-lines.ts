import type { ResponseOf } from "../../api-types.js"
import type { CliOutput } from "../cli-command.js"

/** One API call as `GET /api/v1/request-logs` answers it. */
export type RequestLogEntry = ResponseOf<"listRequestLogs">["data"][number]

/** The time of day of an ISO timestamp, as the host wrote it (UTC), to the second. */
const timeOfDay = (createdAt: string) => /T(\d\d:\d\d:\d\d)/.exec(createdAt)?.[1] ?? createdAt

/**
 * A call as a person scans a tail: `time  METHOD path  status  duration  request_id`, and for a
 * refusal the API's message, then, when the host diagnosed a signature, its cause, its explanation
 * and the canonical string it expected (quoted, so a stray line end or space shows).
 */
export const requestLogLines = (out: CliOutput, entry: RequestLogEntry): ReadonlyArray<string> => {
  const status = String(entry.status)
  const statusColour = entry.status >= 500 ? "red" : entry.status >= 400 ? "yellow" : "green"
  const lines = [
    `${timeOfDay(entry.created_at)}  ${entry.method} ${entry.path}  ${out.colour(statusColour, status)}  ${entry.duration_ms} ms  ${out.colour("dim", entry.request_id)}`
  ]
  if (entry.error !== null) lines.push(`  ${out.colour("red", entry.error.error_code)}: ${entry.error.message}`)
  if (entry.signature_check !== null) {
    lines.push(`  signature: ${entry.signature_check.cause}: ${entry.signature_check.explanation}`)
    lines.push(`  canonical: ${JSON.stringify(entry.signature_check.canonical)}`)
  }
  return lines
}

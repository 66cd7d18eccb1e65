import { type ApiAnswer, type FormParams, missing } from "./fake-stripe-api.js"
import { errorBody, type JsonObject, nowSeconds, stripeId } from "./fake-stripe-objects.js"

/**
 * The fake's disputes and evidence: `POST /v1/files` (multipart, as stripe-node uploads to Stripe's
 * files host, which a custom host replaces) and `POST /v1/disputes/{id}` with `evidence[...]` and
 * `submit`, answered as Stripe answers them: a submitted dispute moves to under_review, and evidence
 * on one no longer waiting for it is refused.
 */
export interface UploadedFile {
  readonly id: string
  readonly purpose: string
  readonly filename: string
  readonly bytes: Uint8Array
}

export interface FakeDisputeState {
  readonly disputes: Map<string, JsonObject>
  readonly files: Map<string, UploadedFile>
}

/** Stripe's file purposes for this fake; dispute evidence is the one the plugin uses. */
const PURPOSES = new Set(["dispute_evidence", "identity_document", "business_logo"])
const EVIDENCE_TYPES = /\.(pdf|jpe?g|png)$/i

export const createFile = async (state: FakeDisputeState, form: FormData): Promise<ApiAnswer> => {
  const purpose = form.get("purpose")
  const file = form.get("file")
  if (typeof purpose !== "string" || !PURPOSES.has(purpose)) {
    return { status: 400, body: errorBody("invalid_request_error", "Invalid purpose", { param: "purpose" }) }
  }
  if (file === null || typeof file === "string") return { status: 400, body: errorBody("invalid_request_error", "Missing required param: file.", { param: "file" }) }
  if (purpose === "dispute_evidence" && !EVIDENCE_TYPES.test(file.name)) {
    return { status: 400, body: errorBody("invalid_request_error", "Dispute evidence must be a PDF, JPEG or PNG file.", { param: "file" }) }
  }
  const bytes = new Uint8Array(await file.arrayBuffer())
  const id = stripeId("file_")
  state.files.set(id, { id, purpose, filename: file.name, bytes })
  return { status: 200, body: { id, object: "file", created: nowSeconds(), filename: file.name, purpose, size: bytes.length, type: file.name.split(".").pop()!.toLowerCase() } }
}

/** Everything under `prefix[...]`, keyed by the inner name. */
const nested = (params: FormParams, prefix: string): Record<string, string> => {
  const record: Record<string, string> = {}
  for (const [key, value] of params) {
    const match = key.startsWith(`${prefix}[`) ? /^\[([^\]]+)\]$/.exec(key.slice(prefix.length)) : null
    if (match !== null) record[match[1]!] = value
  }
  return record
}

const WAITING = new Set(["needs_response", "warning_needs_response"])

export const updateDispute = (state: FakeDisputeState, id: string, params: FormParams): ApiAnswer => {
  const dispute = state.disputes.get(id)
  if (dispute === undefined) return missing("dispute", id, "dispute")
  if (!WAITING.has(dispute["status"] as string)) {
    return { status: 400, body: errorBody("invalid_request_error", `This dispute is ${String(dispute["status"])} and can no longer be updated.`, { param: "evidence" }) }
  }
  const evidence = nested(params, "evidence")
  const file = evidence["uncategorized_file"]
  if (file !== undefined && !state.files.has(file)) return missing("file", file, "evidence[uncategorized_file]")
  dispute["evidence"] = { ...(dispute["evidence"] as JsonObject), ...evidence }
  dispute["metadata"] = { ...(dispute["metadata"] as JsonObject), ...nested(params, "metadata") }
  if (params.get("submit") === "true") {
    dispute["status"] = dispute["status"] === "warning_needs_response" ? "warning_under_review" : "under_review"
    const details = dispute["evidence_details"] as JsonObject
    dispute["evidence_details"] = { ...details, has_evidence: true, submission_count: (details["submission_count"] as number) + 1 }
  }
  return { status: 200, body: dispute }
}

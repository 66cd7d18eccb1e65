import * as Schema from "effect/Schema"
import { DisputeOutcome, DisputeStatus } from "../../../core/disputes/dispute.js"
import { MAX_EVIDENCE_FILE_BYTES, MAX_EVIDENCE_FILES, MAX_EVIDENCE_TEXT } from "../../../core/disputes/dispute-evidence.js"
import { DEFAULT_DISPUTE_LIMIT, MAX_DISPUTE_LIMIT } from "../../../core/disputes/list-disputes.js"
import { dataOf } from "./envelopes.js"
import { amount, type FieldRule, oneOf, string } from "./field-rules.js"
import { cursorParameter, limitParameter } from "./keyset-parameters.js"
import { cursorPage } from "./merchant-list-resources.js"
import type { ListParameter } from "./parameters.js"
import { queryOf } from "./query-contract.js"
import { bodyContract } from "./read-body.js"
import { Environment, Money, PositiveId, Timestamp } from "./value-schemas.js"

/** The bodies, answers and list queries of /api/v1/disputes, /admin/v1/disputes and the sandbox's dispute routes. */

const EvidenceFileSchema = Schema.Struct({
  name: Schema.String.pipe(Schema.minLength(1), Schema.maxLength(100)).annotations({ description: "Letters, digits, dots, dashes, underscores, spaces." }),
  content_base64: Schema.String.annotations({ description: `The file's bytes in standard base64; at most ${MAX_EVIDENCE_FILE_BYTES / 1024} KiB decoded.` })
})

export interface EvidenceFileInput {
  readonly name: string
  readonly contentBase64: string
}

/** `files`: a list of `{name, content_base64}`; the core judges names, content and sizes. */
const evidenceFiles: FieldRule<ReadonlyArray<EvidenceFileInput>, false> = {
  required: false,
  always: false,
  codes: [],
  money: false,
  schema: Schema.Array(EvidenceFileSchema).pipe(Schema.maxItems(MAX_EVIDENCE_FILES)).annotations({
    description: `At most ${MAX_EVIDENCE_FILES} files, each {"name", "content_base64"}, sent on to the gateway with the text.`
  }),
  read: (fields, name) => {
    const value = fields.present(name, { required: false })
    if (value === undefined) return undefined
    if (!Array.isArray(value)) return fields.fail(name, "The files field must be a list of {\"name\", \"content_base64\"} objects.")
    const files: Array<EvidenceFileInput> = []
    for (const item of value) {
      const file = item as { readonly name?: unknown; readonly content_base64?: unknown } | null
      if (typeof file !== "object" || file === null || typeof file.name !== "string" || typeof file.content_base64 !== "string") {
        return fields.fail(name, "Each file must be an object with a name and a content_base64, both strings.")
      }
      files.push({ name: file.name, contentBase64: file.content_base64 })
    }
    return files
  }
}

export const disputeEvidenceBody = bodyContract("DisputeEvidenceRequest", "The merchant's answer to a dispute, sent on to the gateway.", {
  text: string({ required: true, max: MAX_EVIDENCE_TEXT, description: "Why the payment stands: delivery, usage, the customer's own words." }),
  files: evidenceFiles
})

export const openSandboxDisputeBody = bodyContract("OpenSandboxDisputeRequest", "A dispute to open on a completed sandbox payment.", {
  amount: amount({ description: "The disputed part; all that is left of the payment (less refunds and other disputes) by default.", examples: [25] }),
  reason: string({ required: true, max: 200, min: 1, description: "The network's reason, such as fraudulent or product_not_received.", examples: ["fraudulent"] })
})

export const closeSandboxDisputeBody = bodyContract("CloseSandboxDisputeRequest", "How the network decided.", {
  outcome: oneOf(DisputeOutcome.literals, { required: true, description: "won: the held amount goes back to the wallet; lost: the gateway keeps it. The fee stays spent." })
})

const disputeFields = {
  id: Schema.String.annotations({ examples: ["dp_0123456789abcdef0123456789abcdef"] }),
  status: DisputeStatus,
  trx_id: Schema.String.annotations({ description: "The disputed payment." }),
  amount: Money,
  fee: Money.annotations({ description: "The merchant's dispute fee, charged when it opened, never returned." }),
  currency: Schema.String,
  reason: Schema.String,
  environment: Environment,
  evidence_due_by: Timestamp,
  evidence: Schema.NullOr(Schema.Struct({
    text: Schema.String,
    files: Schema.Array(Schema.Struct({ name: Schema.String, size: Schema.Number.annotations({ description: "Bytes." }) }))
  })).annotations({ description: "What the merchant sent; null before." }),
  created_at: Timestamp,
  updated_at: Timestamp
}

export const Dispute = Schema.Struct(disputeFields).annotations({ identifier: "Dispute", description: "A customer's challenge of a completed payment." })
export const DisputeEnvelope = dataOf(Dispute, "DisputeAnswer")
export const DisputePage = Schema.Struct(cursorPage(Dispute)).annotations({ identifier: "DisputePage", description: "Disputes, newest first." })

export const AdminDispute = Schema.Struct({ ...disputeFields, merchant_id: PositiveId }).annotations({ identifier: "AdminDispute" })
export const AdminDisputeEnvelope = dataOf(AdminDispute, "AdminDisputeAnswer")
export const AdminDisputePage = Schema.Struct(cursorPage(AdminDispute)).annotations({ identifier: "AdminDisputePage", description: "Disputes, newest first." })

const disputeStatusParameter: ListParameter<DisputeStatus | undefined> = {
  name: "status",
  in: "query",
  required: false,
  description: "Only disputes with this status: needs_response are the ones waiting for evidence.",
  schema: DisputeStatus,
  read: (query) => query.oneOf("status", DisputeStatus.literals)
}

export const disputeListQuery = queryOf({
  status: disputeStatusParameter,
  limit: limitParameter("Disputes per page.", DEFAULT_DISPUTE_LIMIT, MAX_DISPUTE_LIMIT),
  cursor: cursorParameter("A previous page's next_cursor: the page after it, however many disputes arrived since.")
})

import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { DisputeStatus } from "../../core/disputes/dispute.js"
import { DisputeRepository } from "../../core/disputes/dispute-repository.js"
import { Amount } from "../../core/money/amount.js"
import { Environment } from "../../core/shared/environment.js"
import { GatewayId, MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { Int64, JsonText } from "./columns.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { bySchema, int64, literal, nullable, safeInt, table, text } from "./table.js"
import { keysetAfter } from "./keyset.js"

/** Evidence files as stored: the name, the decoded size and the bytes in base64. */
const EvidenceFiles = Schema.Array(Schema.Struct({ name: Schema.String, size: Schema.NonNegativeInt, content_base64: Schema.String }))

export const disputesTable = table("disputes", {
  id: text,
  merchant_id: safeInt,
  environment: literal(Environment),
  payment_trx_id: text,
  currency: text,
  amount: int64,
  fee: int64,
  reason: text,
  status: literal(DisputeStatus),
  evidence_due_by: int64,
  evidence_text: nullable(text),
  evidence_files: bySchema(JsonText(EvidenceFiles), "text"),
  gateway_id: nullable(safeInt),
  gateway_dispute_id: nullable(text),
  created_at: int64,
  updated_at: int64
})

const disputes = tableRows(disputesTable, (row) => ({
  id: row.id,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  paymentTrxId: row.payment_trx_id,
  currency: row.currency,
  amount: Amount(row.amount),
  fee: Amount(row.fee),
  reason: row.reason,
  status: row.status,
  evidenceDueBy: Instant(row.evidence_due_by),
  evidenceText: row.evidence_text,
  evidenceFiles: row.evidence_files.map((file) => ({ name: file.name, size: file.size, contentBase64: file.content_base64 })),
  gatewayId: row.gateway_id === null ? null : GatewayId(row.gateway_id),
  gatewayDisputeId: row.gateway_dispute_id,
  createdAt: Instant(row.created_at),
  updatedAt: Instant(row.updated_at)
}))

const decodeSum = Schema.decodeUnknown(Schema.Struct({ total: Schema.NullOr(Int64) }))

const filesValue = (files: ReadonlyArray<{ readonly name: string; readonly size: number; readonly contentBase64: string }>) =>
  files.map((file) => ({ name: file.name, size: file.size, content_base64: file.contentBase64 }))

export const layer = Layer.effect(
  DisputeRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    DisputeRepository.of({
      insert: (dispute) =>
        sql`INSERT INTO disputes ${sql.insert(disputesTable.values({
          id: dispute.id,
          merchant_id: dispute.merchantId,
          environment: dispute.environment,
          payment_trx_id: dispute.paymentTrxId,
          currency: dispute.currency,
          amount: dispute.amount,
          fee: dispute.fee,
          reason: dispute.reason,
          status: dispute.status,
          evidence_due_by: dispute.evidenceDueBy,
          evidence_text: dispute.evidenceText,
          evidence_files: filesValue(dispute.evidenceFiles),
          gateway_id: dispute.gatewayId,
          gateway_dispute_id: dispute.gatewayDisputeId,
          created_at: dispute.createdAt,
          updated_at: dispute.updatedAt
        }))}`.pipe(Effect.asVoid, dbCall),
      findById: (id) => sql`SELECT * FROM disputes WHERE id = ${id}`.pipe(Effect.flatMap(disputes.first), dbCall),
      findScoped: (merchantId, environment, id) =>
        sql`SELECT * FROM disputes WHERE id = ${id} AND merchant_id = ${merchantId} AND environment = ${environment}`.pipe(
          Effect.flatMap(disputes.first),
          dbCall
        ),
      findByGatewayId: (gatewayId, gatewayDisputeId) =>
        sql`SELECT * FROM disputes WHERE gateway_id = ${gatewayId} AND gateway_dispute_id = ${gatewayDisputeId}`.pipe(
          Effect.flatMap(disputes.first),
          dbCall
        ),
      findForUpdate: (id) =>
        sql.onDialectOrElse({
          pg: () => sql`SELECT * FROM disputes WHERE id = ${id} FOR UPDATE`,
          orElse: () => sql`SELECT * FROM disputes WHERE id = ${id}`
        }).pipe(Effect.flatMap(disputes.first), dbCall),
      transition: (id, from, change) =>
        sql`UPDATE disputes SET ${
          sql.update(disputesTable.changes({
            status: change.status,
            updated_at: change.at,
            ...(change.evidenceDueBy !== undefined ? { evidence_due_by: change.evidenceDueBy } : {}),
            ...(change.evidence !== undefined
              ? { evidence_text: change.evidence.text, evidence_files: filesValue(change.evidence.files) }
              : {})
          }))
        } WHERE id = ${id} AND status = ${from} RETURNING *`.pipe(Effect.flatMap(disputes.first), dbCall),
      heldOfPayment: (trxId) =>
        // PostgreSQL's SUM over BIGINT is NUMERIC; the cast keeps both dialects answering an integer.
        sql`SELECT CAST(COALESCE(SUM(amount), 0) AS BIGINT) AS total FROM disputes
          WHERE payment_trx_id = ${trxId} AND status <> 'won'`.pipe(
          Effect.flatMap((rows) => decodeSum(rows[0])),
          Effect.map((row) => Amount(row.total ?? 0n)),
          dbCall
        ),
      list: (query) =>
        sql`SELECT * FROM disputes WHERE ${
          sql.and([
            ...(query.merchantId !== undefined ? [sql`merchant_id = ${query.merchantId}`] : []),
            ...(query.environment !== undefined ? [sql`environment = ${query.environment}`] : []),
            ...(query.status !== undefined ? [sql`status = ${query.status}`] : []),
            ...(query.paymentTrxId !== undefined ? [sql`payment_trx_id = ${query.paymentTrxId}`] : []),
            ...(query.before !== undefined
              ? [keysetAfter(sql, "id", query.before)]
              : [])
          ])
        } ORDER BY created_at DESC, id DESC LIMIT ${query.limit}`.pipe(Effect.flatMap(disputes.all), dbCall)
    }))
)

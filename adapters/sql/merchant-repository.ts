import * as SqlClient from "@effect/sql/SqlClient"
import type * as Statement from "@effect/sql/Statement"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { MerchantStatus, type Merchant } from "../../core/merchants/merchant.js"
import { MerchantRepository } from "../../core/merchants/merchant-repository.js"
import { Amount } from "../../core/money/amount.js"
import { MerchantId } from "../../core/shared/ids.js"
import { IpnJsonStyle, IpnSignatureFormat } from "../../core/webhooks/ipn-compatibility.js"
import { Instant, now } from "../../core/shared/instant.js"
import { SafeInt } from "./columns.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, serialId, table, text } from "./table.js"

export const merchantsTable = table("merchants", {
  id: serialId,
  name: text,
  status: literal(MerchantStatus),
  ipn_signature_format: literal(IpnSignatureFormat),
  ipn_json_style: literal(IpnJsonStyle),
  fee_percent: int64,
  fee_fixed: int64,
  dispute_fee: int64,
  created_at: int64,
  updated_at: int64
})

const toMerchant = (row: typeof merchantsTable.Row.Type): Merchant => ({
  id: MerchantId(row.id),
  name: row.name,
  status: row.status,
  ipnSignatureFormat: row.ipn_signature_format,
  ipnJsonStyle: row.ipn_json_style,
  feePercent: Amount(row.fee_percent),
  feeFixed: Amount(row.fee_fixed),
  disputeFee: Amount(row.dispute_fee),
  createdAt: Instant(row.created_at),
  updatedAt: Instant(row.updated_at)
})

const merchants = tableRows(merchantsTable, toMerchant)

const CountRow = Schema.Struct({ n: SafeInt })

export const layer = Layer.effect(
  MerchantRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const findById = (id: MerchantId) =>
      sql`SELECT * FROM merchants WHERE id = ${id}`.pipe(Effect.flatMap(merchants.first), dbCall)

    const countWhere = (where: Statement.Fragment) =>
      sql`SELECT COUNT(*) AS n FROM merchants WHERE ${where}`.pipe(
        Effect.flatMap((rows) => Schema.decodeUnknown(CountRow)(rows[0])),
        Effect.map((row) => row.n)
      )

    return MerchantRepository.of({
      create: (merchant) =>
        Effect.gen(function*() {
          const at = yield* now
          const rows = yield* sql`INSERT INTO merchants ${
            sql.insert({
              name: merchant.name,
              status: merchant.status,
              // Absent, the columns' defaults: the contract's spelling.
              ...(merchant.ipnSignatureFormat !== undefined ? { ipn_signature_format: merchant.ipnSignatureFormat } : {}),
              ...(merchant.ipnJsonStyle !== undefined ? { ipn_json_style: merchant.ipnJsonStyle } : {}),
              fee_percent: merchant.feePercent,
              fee_fixed: merchant.feeFixed,
              dispute_fee: merchant.disputeFee ?? 0n,
              created_at: at,
              updated_at: at
            })
          } RETURNING *`
          return yield* merchants.one(rows)
        }).pipe(dbCall),
      findById,
      findByIds: (ids) =>
        ids.length === 0 ? Effect.succeed([]) : sql`SELECT * FROM merchants WHERE ${sql.in("id", ids)}`.pipe(Effect.flatMap(merchants.all), dbCall),
      count: countWhere(sql.and([])).pipe(dbCall),
      list: ({ limit, offset, status }) => {
        const where = sql.and(status !== undefined ? [sql`status = ${status}`] : [])
        // Page and total are read apart: a merchant created between them only shifts the next page.
        return Effect.all({
          merchants: sql`SELECT * FROM merchants WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ${limit} OFFSET ${offset}`.pipe(
            Effect.flatMap(merchants.all)
          ),
          total: countWhere(where)
        }).pipe(dbCall)
      },
      update: (id, patch) =>
        Effect.gen(function*() {
          const at = yield* now
          const changes = {
            ...(patch.name !== undefined ? { name: patch.name } : {}),
            ...(patch.status !== undefined ? { status: patch.status } : {}),
            ...(patch.ipnSignatureFormat !== undefined ? { ipn_signature_format: patch.ipnSignatureFormat } : {}),
            ...(patch.ipnJsonStyle !== undefined ? { ipn_json_style: patch.ipnJsonStyle } : {}),
            ...(patch.feePercent !== undefined ? { fee_percent: patch.feePercent } : {}),
            ...(patch.feeFixed !== undefined ? { fee_fixed: patch.feeFixed } : {}),
            ...(patch.disputeFee !== undefined ? { dispute_fee: patch.disputeFee } : {}),
            updated_at: at
          }
          const rows = yield* sql`UPDATE merchants SET ${sql.update(changes)} WHERE id = ${id} RETURNING *`
          return yield* merchants.first(rows)
        }).pipe(dbCall)
    })
  })
)

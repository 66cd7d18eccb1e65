import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { MerchantStatus, type Merchant } from "../../core/merchants/merchant.js"
import { MerchantRepository } from "../../core/merchants/merchant-repository.js"
import { Amount } from "../../core/money/amount.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant, now } from "../../core/shared/instant.js"
import { Int64, SafeInt } from "./columns.js"
import { dbCall } from "./query.js"

const MerchantRow = Schema.Struct({
  id: SafeInt,
  name: Schema.String,
  status: MerchantStatus,
  fee_percent: Int64,
  fee_fixed: Int64,
  created_at: Int64,
  updated_at: Int64
})

const decode = Schema.decodeUnknown(MerchantRow)

const toMerchant = (row: typeof MerchantRow.Type): Merchant => ({
  id: MerchantId(row.id),
  name: row.name,
  status: row.status,
  feePercent: Amount(row.fee_percent),
  feeFixed: Amount(row.fee_fixed),
  createdAt: Instant(row.created_at),
  updatedAt: Instant(row.updated_at)
})

export const layer = Layer.effect(
  MerchantRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const findById = (id: MerchantId) =>
      sql`SELECT * FROM merchants WHERE id = ${id}`.pipe(
        Effect.flatMap((rows) => rows.length === 0 ? Effect.succeedNone : Effect.asSome(decode(rows[0]))),
        Effect.map(Option.map(toMerchant)),
        dbCall
      )

    return MerchantRepository.of({
      create: (merchant) =>
        Effect.gen(function*() {
          const at = yield* now
          const rows = yield* sql`INSERT INTO merchants ${
            sql.insert({
              name: merchant.name,
              status: merchant.status,
              fee_percent: merchant.feePercent,
              fee_fixed: merchant.feeFixed,
              created_at: at,
              updated_at: at
            })
          } RETURNING *`
          return toMerchant(yield* decode(rows[0]))
        }).pipe(dbCall),
      findById,
      update: (id, patch) =>
        Effect.gen(function*() {
          const at = yield* now
          const changes = {
            ...(patch.name !== undefined ? { name: patch.name } : {}),
            ...(patch.status !== undefined ? { status: patch.status } : {}),
            ...(patch.feePercent !== undefined ? { fee_percent: patch.feePercent } : {}),
            ...(patch.feeFixed !== undefined ? { fee_fixed: patch.feeFixed } : {}),
            updated_at: at
          }
          const rows = yield* sql`UPDATE merchants SET ${sql.update(changes)} WHERE id = ${id} RETURNING *`
          return rows.length === 0 ? Option.none() : Option.some(toMerchant(yield* decode(rows[0])))
        }).pipe(dbCall)
    })
  })
)

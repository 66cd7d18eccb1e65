import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { PayoutDestinationType } from "../../core/payouts/payout-destination.js"
import { PayoutDestinationRepository } from "../../core/payouts/payout-destination-repository.js"
import { Environment } from "../../core/shared/environment.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, nullable, safeInt, table, text } from "./table.js"

export const payoutDestinationsTable = table("payout_destinations", {
  id: text,
  merchant_id: safeInt,
  environment: literal(Environment),
  type: literal(PayoutDestinationType),
  account_holder: text,
  iban_masked: text,
  sealed_iban: text,
  bic: nullable(text),
  currency: text,
  created_at: int64,
  account_id: nullable(text)
})

const destinations = tableRows(payoutDestinationsTable, (row) => ({
  id: row.id,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  type: row.type,
  accountHolder: row.account_holder,
  ibanMasked: row.iban_masked,
  sealedIban: row.sealed_iban,
  bic: row.bic,
  currency: row.currency,
  createdAt: Instant(row.created_at),
  accountId: row.account_id
}))

export const layer = Layer.effect(
  PayoutDestinationRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    PayoutDestinationRepository.of({
      create: (destination, limit) =>
        sql.withTransaction(Effect.gen(function*() {
          // The merchant's row is the lock two concurrent adds queue on, so the count they each see is
          // the other's too and the limit holds (SQLite has one writer already).
          yield* sql.onDialectOrElse({
            pg: () => sql`SELECT id FROM merchants WHERE id = ${destination.merchantId} FOR UPDATE`,
            orElse: () => Effect.succeed([])
          })
          const [kept] = yield* sql<{ readonly kept: unknown }>`SELECT COUNT(*) AS kept FROM payout_destinations
            WHERE merchant_id = ${destination.merchantId} AND environment = ${destination.environment} AND deleted_at IS NULL`
          if (Number(kept?.kept ?? 0) >= limit) return false
          yield* sql`INSERT INTO payout_destinations ${sql.insert(payoutDestinationsTable.values({
            id: destination.id,
            merchant_id: destination.merchantId,
            environment: destination.environment,
            type: destination.type,
            account_holder: destination.accountHolder,
            iban_masked: destination.ibanMasked,
            sealed_iban: destination.sealedIban,
            bic: destination.bic,
            currency: destination.currency,
            created_at: destination.createdAt,
            account_id: destination.accountId
          }))}`
          return true
        })).pipe(dbCall),
      list: (merchantId, environment) =>
        sql`SELECT * FROM payout_destinations WHERE merchant_id = ${merchantId} AND environment = ${environment} AND deleted_at IS NULL
            ORDER BY created_at, id`.pipe(Effect.flatMap(destinations.all), dbCall),
      find: (merchantId, environment, id) =>
        sql`SELECT * FROM payout_destinations WHERE id = ${id} AND merchant_id = ${merchantId} AND environment = ${environment} AND deleted_at IS NULL`.pipe(
          Effect.flatMap(destinations.first),
          dbCall
        ),
      findForPayout: (id) =>
        sql`SELECT * FROM payout_destinations WHERE id = ${id}`.pipe(Effect.flatMap(destinations.first), dbCall),
      remove: (merchantId, environment, id, at) =>
        sql`UPDATE payout_destinations SET deleted_at = ${at}
            WHERE id = ${id} AND merchant_id = ${merchantId} AND environment = ${environment} AND deleted_at IS NULL
            RETURNING id`.pipe(Effect.map((rows) => rows.length === 1), dbCall)
    }))
)

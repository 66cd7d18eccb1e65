import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Environment } from "../../core/shared/environment.js"
import { CredentialRepository, MerchantKeyTaken, type StoredCredentials } from "../../core/merchants/credentials.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant, now } from "../../core/shared/instant.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, safeInt, serialId, table, text } from "./table.js"

/** The columns a merchant's current and retired credential sets share. */
const credentialColumns = {
  merchant_id: safeInt,
  environment: literal(Environment),
  merchant_key: text,
  api_key_hash: text,
  sealed_client_secret: text,
  sealed_webhook_secret: text,
  created_at: int64
}

export const credentialsTable = table("merchant_credentials", credentialColumns)

export const retiredCredentialsTable = table("retired_credentials", { ...credentialColumns, id: serialId, retires_at: int64 })

const toCredentials = (row: typeof credentialsTable.Row.Type, retiresAt: bigint | null): StoredCredentials => ({
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  merchantKey: row.merchant_key,
  apiKeyHash: row.api_key_hash,
  sealedClientSecret: row.sealed_client_secret,
  sealedWebhookSecret: row.sealed_webhook_secret,
  createdAt: Instant(row.created_at),
  retiresAt: retiresAt === null ? null : Instant(retiresAt)
})

const current = tableRows(credentialsTable, (row) => toCredentials(row, null))
const retired = tableRows(retiredCredentialsTable, (row) => toCredentials(row, row.retires_at))

export const layer = Layer.effect(
  CredentialRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const findCurrent = (merchantId: MerchantId, environment: Environment) =>
      sql`SELECT * FROM merchant_credentials WHERE merchant_id = ${merchantId} AND environment = ${environment}`.pipe(
        Effect.flatMap(current.first)
      )

    // Current sets first, then replaced ones still in their overlap, newest first: each merchant's
    // and environment's in liveSets' order, whatever the others between them.
    const liveSetsOf = (merchantIds: ReadonlyArray<MerchantId>, at: Instant) =>
      merchantIds.length === 0 ? Effect.succeed([]) : Effect.gen(function*() {
        const found = yield* sql`SELECT * FROM merchant_credentials WHERE ${sql.in("merchant_id", merchantIds)}`.pipe(Effect.flatMap(current.all))
        const replaced = yield* sql`SELECT * FROM retired_credentials
          WHERE ${sql.in("merchant_id", merchantIds)} AND retires_at > ${at}
          ORDER BY id DESC`.pipe(Effect.flatMap(retired.all))
        return [...found, ...replaced]
      }).pipe(dbCall)

    return CredentialRepository.of({
      rotate: (next, options = {}) =>
        sql.withTransaction(
          Effect.gen(function*() {
            const at = yield* now
            const taken = yield* sql`SELECT 1 AS taken FROM merchant_credentials
              WHERE environment = ${next.environment} AND merchant_key = ${next.merchantKey} AND merchant_id <> ${next.merchantId}`
            if (taken.length > 0) return yield* new MerchantKeyTaken({ environment: next.environment })
            if (options.retireAt !== undefined) {
              // The replaced set moves aside whole, still sealed, in the transaction that replaces it:
              // there is never a moment when neither set works.
              yield* sql`INSERT INTO retired_credentials
                (merchant_id, environment, merchant_key, api_key_hash, sealed_client_secret, sealed_webhook_secret, created_at, retires_at)
                SELECT merchant_id, environment, merchant_key, api_key_hash, sealed_client_secret, sealed_webhook_secret, created_at, ${options.retireAt}
                FROM merchant_credentials WHERE merchant_id = ${next.merchantId} AND environment = ${next.environment}`
            }
            // One upsert replaces the set in place, so concurrent rotations each land whole (the last
            // one wins) and there is never a moment when the merchant has no credentials.
            const rows = yield* sql`INSERT INTO merchant_credentials ${
              sql.insert(credentialsTable.values({
                merchant_id: next.merchantId,
                environment: next.environment,
                merchant_key: next.merchantKey,
                api_key_hash: next.apiKeyHash,
                sealed_client_secret: next.sealedClientSecret,
                sealed_webhook_secret: next.sealedWebhookSecret,
                created_at: at
              }))
            } ON CONFLICT (merchant_id, environment) DO UPDATE SET
                merchant_key = excluded.merchant_key,
                api_key_hash = excluded.api_key_hash,
                sealed_client_secret = excluded.sealed_client_secret,
                sealed_webhook_secret = excluded.sealed_webhook_secret,
                created_at = excluded.created_at
              RETURNING *`
            return yield* current.one(rows)
          })
        ).pipe(dbCall),

      findByMerchantKey: (environment, merchantKey, at) =>
        Effect.gen(function*() {
          const found = yield* sql`SELECT * FROM merchant_credentials
            WHERE environment = ${environment} AND merchant_key = ${merchantKey}`.pipe(Effect.flatMap(current.first))
          if (found._tag === "Some") return found
          return yield* sql`SELECT * FROM retired_credentials
            WHERE environment = ${environment} AND merchant_key = ${merchantKey} AND retires_at > ${at}
            ORDER BY retires_at DESC LIMIT 1`.pipe(Effect.flatMap(retired.first))
        }).pipe(dbCall),

      findForMerchant: (merchantId, environment) => findCurrent(merchantId, environment).pipe(dbCall),

      liveSets: (merchantId, environment, at) =>
        Effect.map(liveSetsOf([merchantId], at), (sets) => sets.filter((set) => set.environment === environment)),

      liveSetsOf: (merchantIds, at) => liveSetsOf(merchantIds, at),

      endOverlap: (merchantId, environment) =>
        sql`DELETE FROM retired_credentials WHERE merchant_id = ${merchantId} AND environment = ${environment} RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          dbCall
        ),

      destroyRetired: (at) =>
        sql`DELETE FROM retired_credentials WHERE retires_at <= ${at} RETURNING id`.pipe(
          Effect.map((rows) => rows.length),
          dbCall
        )
    })
  })
)

import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { Environment } from "../../core/merchants/environment.js"
import { CredentialRepository, MerchantKeyTaken, type StoredCredentials } from "../../core/merchants/credentials.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant, now } from "../../core/shared/instant.js"
import { Int64, SafeInt } from "./columns.js"
import { dbCall } from "./query.js"
import { rowMapper } from "./row-mapper.js"

const CredentialRow = Schema.Struct({
  merchant_id: SafeInt,
  environment: Environment,
  merchant_key: Schema.String,
  api_key_hash: Schema.String,
  sealed_client_secret: Schema.String,
  sealed_webhook_secret: Schema.String,
  created_at: Int64
})

const toCredentials = (row: typeof CredentialRow.Type): StoredCredentials => ({
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  merchantKey: row.merchant_key,
  apiKeyHash: row.api_key_hash,
  sealedClientSecret: row.sealed_client_secret,
  sealedWebhookSecret: row.sealed_webhook_secret,
  createdAt: Instant(row.created_at)
})

const credentials = rowMapper(CredentialRow, toCredentials)

export const layer = Layer.effect(
  CredentialRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return CredentialRepository.of({
      rotate: (next) =>
        sql.withTransaction(
          Effect.gen(function*() {
            const at = yield* now
            yield* sql`DELETE FROM merchant_credentials WHERE merchant_id = ${next.merchantId} AND environment = ${next.environment}`
            const rows = yield* sql`INSERT INTO merchant_credentials ${
              sql.insert({
                merchant_id: next.merchantId,
                environment: next.environment,
                merchant_key: next.merchantKey,
                api_key_hash: next.apiKeyHash,
                sealed_client_secret: next.sealedClientSecret,
                sealed_webhook_secret: next.sealedWebhookSecret,
                created_at: at
              })
            } ON CONFLICT DO NOTHING RETURNING *`
            // Failing here rolls the DELETE back too: a clash never leaves the merchant keyless.
            if (rows.length === 0) return yield* new MerchantKeyTaken({ environment: next.environment })
            return yield* credentials.one(rows)
          })
        ).pipe(dbCall),
      findByMerchantKey: (environment, merchantKey) =>
        sql`SELECT * FROM merchant_credentials WHERE environment = ${environment} AND merchant_key = ${merchantKey}`.pipe(
          Effect.flatMap(credentials.first),
          dbCall
        ),
      findForMerchant: (merchantId, environment) =>
        sql`SELECT * FROM merchant_credentials WHERE merchant_id = ${merchantId} AND environment = ${environment}`.pipe(
          Effect.flatMap(credentials.first),
          dbCall
        )
    })
  })
)

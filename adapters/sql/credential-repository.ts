import { SqlClient } from "@effect/sql"
import { Effect, Layer, Option, Schema } from "effect"
import { Environment } from "../../core/merchants/environment.js"
import { CredentialRepository, MerchantKeyTaken, type StoredCredentials } from "../../core/merchants/credentials.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant, now } from "../../core/shared/instant.js"
import { Int64, SafeInt } from "./columns.js"
import { dbCall } from "./query.js"

const CredentialRow = Schema.Struct({
  merchant_id: SafeInt,
  environment: Environment,
  merchant_key: Schema.String,
  api_key_hash: Schema.String,
  sealed_client_secret: Schema.String,
  sealed_webhook_secret: Schema.String,
  created_at: Int64
})

const decode = Schema.decodeUnknown(CredentialRow)

const toCredentials = (row: typeof CredentialRow.Type): StoredCredentials => ({
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  merchantKey: row.merchant_key,
  apiKeyHash: row.api_key_hash,
  sealedClientSecret: row.sealed_client_secret,
  sealedWebhookSecret: row.sealed_webhook_secret,
  createdAt: Instant(row.created_at)
})

const firstRow = (rows: ReadonlyArray<unknown>) =>
  rows.length === 0 ? Effect.succeed(Option.none<StoredCredentials>()) : Effect.map(decode(rows[0]), (row) => Option.some(toCredentials(row)))

export const layer = Layer.effect(
  CredentialRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return CredentialRepository.of({
      rotate: (credentials) =>
        sql.withTransaction(
          Effect.gen(function*() {
            const at = yield* now
            yield* sql`DELETE FROM merchant_credentials WHERE merchant_id = ${credentials.merchantId} AND environment = ${credentials.environment}`
            const rows = yield* sql`INSERT INTO merchant_credentials ${
              sql.insert({
                merchant_id: credentials.merchantId,
                environment: credentials.environment,
                merchant_key: credentials.merchantKey,
                api_key_hash: credentials.apiKeyHash,
                sealed_client_secret: credentials.sealedClientSecret,
                sealed_webhook_secret: credentials.sealedWebhookSecret,
                created_at: at
              })
            } ON CONFLICT DO NOTHING RETURNING *`
            // Failing here rolls the DELETE back too: a clash never leaves the merchant keyless.
            if (rows.length === 0) return yield* new MerchantKeyTaken({ environment: credentials.environment })
            return toCredentials(yield* decode(rows[0]))
          })
        ).pipe(dbCall),
      findByMerchantKey: (environment, merchantKey) =>
        sql`SELECT * FROM merchant_credentials WHERE environment = ${environment} AND merchant_key = ${merchantKey}`.pipe(
          Effect.flatMap(firstRow),
          dbCall
        ),
      findForMerchant: (merchantId, environment) =>
        sql`SELECT * FROM merchant_credentials WHERE merchant_id = ${merchantId} AND environment = ${environment}`.pipe(
          Effect.flatMap(firstRow),
          dbCall
        )
    })
  })
)

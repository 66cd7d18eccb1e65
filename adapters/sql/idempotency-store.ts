import { SqlClient } from "@effect/sql"
import { Effect, Layer, Schema } from "effect"
import { IdempotencyStore, type BeginResult, type IdempotencyScope } from "../../core/idempotency/idempotency-store.js"
import { NullableString, SafeInt } from "./columns.js"
import { dbCall } from "./query.js"

const RecordRow = Schema.Struct({
  fingerprint: Schema.String,
  state: Schema.Literal("in_flight", "completed"),
  response_status: Schema.NullOr(SafeInt),
  response_body: NullableString
})

const decodeRecord = Schema.decodeUnknown(RecordRow)

type BeginRequest = Parameters<IdempotencyStore["Type"]["begin"]>[0]

const started: BeginResult = { _tag: "Started" }
const inFlight: BeginResult = { _tag: "InFlight" }
const mismatch: BeginResult = { _tag: "Mismatch" }

/** A record vanishing between our insert and our read (its owner abandoned it) is retried this often. */
const BEGIN_ATTEMPTS = 3

export const layer = Layer.effect(
  IdempotencyStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient

    const where = (scope: IdempotencyScope) =>
      sql`merchant_id = ${scope.merchantId} AND environment = ${scope.environment} AND idempotency_key = ${scope.key}`

    const attemptBegin = (request: BeginRequest) =>
      Effect.gen(function*() {
        const { scope, fingerprint, now, lockedUntil, expiresAt } = request
        const inserted = yield* sql`INSERT INTO idempotency_keys ${
          sql.insert({
            merchant_id: scope.merchantId,
            environment: scope.environment,
            idempotency_key: scope.key,
            fingerprint,
            state: "in_flight",
            response_status: null,
            response_body: null,
            locked_until: lockedUntil,
            expires_at: expiresAt,
            created_at: now
          })
        } ON CONFLICT (merchant_id, environment, idempotency_key) DO NOTHING RETURNING idempotency_key`
        if (inserted.length > 0) return started
        // An expired record, or an in-flight one whose owner died, is taken over in one conditional update.
        const taken = yield* sql`UPDATE idempotency_keys SET fingerprint = ${fingerprint}, state = 'in_flight',
            response_status = NULL, response_body = NULL, locked_until = ${lockedUntil},
            expires_at = ${expiresAt}, created_at = ${now}
          WHERE ${where(scope)} AND (expires_at <= ${now} OR (state = 'in_flight' AND locked_until <= ${now}))
          RETURNING idempotency_key`
        if (taken.length > 0) return started
        const rows = yield* sql`SELECT fingerprint, state, response_status, response_body FROM idempotency_keys WHERE ${where(scope)}`
        if (rows.length === 0) return undefined
        const record = yield* decodeRecord(rows[0])
        if (record.fingerprint !== fingerprint) return mismatch
        if (record.state === "in_flight" || record.response_status === null) return inFlight
        const replay: BeginResult = {
          _tag: "Replay",
          response: { status: record.response_status, body: record.response_body ?? "" }
        }
        return replay
      })

    return IdempotencyStore.of({
      begin: (request) =>
        Effect.gen(function*() {
          for (let attempt = 1; attempt <= BEGIN_ATTEMPTS; attempt++) {
            const result = yield* attemptBegin(request)
            if (result !== undefined) return result
          }
          return inFlight
        }).pipe(dbCall),
      complete: (scope, response) =>
        sql`UPDATE idempotency_keys SET state = 'completed', response_status = ${response.status},
            response_body = ${response.body} WHERE ${where(scope)}`.pipe(Effect.asVoid, dbCall),
      abandon: (scope) => sql`DELETE FROM idempotency_keys WHERE ${where(scope)} AND state = 'in_flight'`.pipe(Effect.asVoid, dbCall),
      purgeExpired: (now) =>
        sql`DELETE FROM idempotency_keys WHERE expires_at < ${now} RETURNING idempotency_key`.pipe(
          Effect.map((rows) => rows.length),
          dbCall
        )
    })
  })
)

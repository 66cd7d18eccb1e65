import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import {
  IdempotencyStore,
  type IdempotencyScope,
  type KeyedOutcome,
  type KeyedRequest,
  type StoredResponse
} from "../../core/idempotency/idempotency-store.js"
import type { StorageError } from "../../core/shared/storage-error.js"
import { dbCall } from "./query.js"
import { sqlErrorToStorageError } from "./storage-errors.js"
import { int64, nullable, safeInt, table, text, typed } from "./table.js"

export const idempotencyKeysTable = table("idempotency_keys", {
  fingerprint: text,
  state: text,
  response_status: nullable(typed(safeInt, "integer")),
  response_body: nullable(text),
  expires_at: int64
})

const decodeRecords = Schema.decodeUnknown(Schema.Array(idempotencyKeysTable.Row))

const inFlight = { _tag: "InFlight" } as const
const mismatch = { _tag: "Mismatch" } as const

/** Carries a response that must not be kept out of the transaction, so that it rolls back. */
class NotKept<A> {
  readonly _tag = "NotKept"
  constructor(readonly value: A) {}
}

const scopeKey = (scope: IdempotencyScope) => `${scope.merchantId}|${scope.environment}|${scope.key}`

/**
 * A key is claimed, its effect run and its response stored in one transaction (see the port). Two
 * identical requests must not both run: within this process a set of keys in flight answers the
 * second at once (on SQLite, whose one connection serializes transactions, it would otherwise wait
 * for the first to finish); across processes on PostgreSQL a transaction-scoped advisory lock on the
 * key does, and is released by the commit, the rollback, or the death of the connection, so a crash
 * never leaves a key locked. Rows written as `in_flight` by earlier versions count as unused.
 */
export const layer = Layer.effect(
  IdempotencyStore,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const running = new Set<string>()

    const where = (scope: IdempotencyScope) =>
      sql`merchant_id = ${scope.merchantId} AND environment = ${scope.environment} AND idempotency_key = ${scope.key}`

    // Only PostgreSQL has other processes' transactions to wait for; SQLite's are serial anyway.
    const lockAcrossHosts = (scope: IdempotencyScope) =>
      sql.onDialectOrElse({
        pg: () =>
          Effect.map(
            sql<{ readonly locked: boolean }>`SELECT pg_try_advisory_xact_lock(hashtextextended(${scopeKey(scope)}, 0)) AS locked`,
            (rows) => rows[0]?.locked === true
          ),
        orElse: () => Effect.succeed(true)
      })

    const claim = (request: KeyedRequest) =>
      Effect.gen(function*() {
        if (!(yield* lockAcrossHosts(request.scope))) return inFlight
        const rows = yield* decodeRecords(yield* sql`SELECT fingerprint, state, response_status, response_body, expires_at
          FROM idempotency_keys WHERE ${where(request.scope)}`)
        const record = rows[0]
        if (record === undefined || record.state !== "completed" || record.expires_at <= request.now) return undefined
        if (record.fingerprint !== request.fingerprint && !(request.alsoMatches ?? []).includes(record.fingerprint)) return mismatch
        return { _tag: "Replay", response: { status: record.response_status ?? 500, body: record.response_body ?? "" } } as const
      }).pipe(dbCall)

    const store = (request: KeyedRequest, response: StoredResponse) =>
      sql`INSERT INTO idempotency_keys ${
        sql.insert({
          merchant_id: request.scope.merchantId,
          environment: request.scope.environment,
          idempotency_key: request.scope.key,
          fingerprint: request.fingerprint,
          state: "completed",
          response_status: response.status,
          response_body: response.body,
          locked_until: request.now,
          expires_at: request.expiresAt,
          created_at: request.now
        })
      } ON CONFLICT (merchant_id, environment, idempotency_key) DO UPDATE SET fingerprint = excluded.fingerprint,
        state = excluded.state, response_status = excluded.response_status, response_body = excluded.response_body,
        locked_until = excluded.locked_until, expires_at = excluded.expires_at, created_at = excluded.created_at`.pipe(
        Effect.asVoid,
        dbCall
      )

    const once = <A, E, R>(
      request: KeyedRequest,
      effect: Effect.Effect<A, E, R>,
      keep: (value: A) => StoredResponse | undefined
    ): Effect.Effect<KeyedOutcome<A>, E | StorageError, R> => {
      const inTransaction = Effect.gen(function*() {
        const earlier = yield* claim(request)
        if (earlier !== undefined) return earlier as KeyedOutcome<A>
        const value = yield* effect
        const response = keep(value)
        if (response === undefined) return yield* Effect.fail(new NotKept(value))
        yield* store(request, response)
        return { _tag: "Ran", value } as KeyedOutcome<A>
      })
      return Effect.suspend(() => {
        const key = scopeKey(request.scope)
        if (running.has(key)) return Effect.succeed(inFlight)
        running.add(key)
        return sqlErrorToStorageError(sql.withTransaction(inTransaction)).pipe(
          Effect.catchIf(
            (error): error is NotKept<A> => error instanceof NotKept,
            (notKept) => Effect.succeed<KeyedOutcome<A>>({ _tag: "Ran", value: notKept.value })
          ),
          Effect.ensuring(Effect.sync(() => running.delete(key)))
        )
      })
    }

    return IdempotencyStore.of({
      once,
      purgeExpired: (now) =>
        sql`DELETE FROM idempotency_keys WHERE expires_at < ${now} RETURNING idempotency_key`.pipe(
          Effect.map((rows) => rows.length),
          dbCall
        )
    })
  })
)

import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Environment } from "../../core/shared/environment.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { SigningSecret } from "../../core/webhooks/delivery.js"
import { EventLog, type LoggedEvent, type NewLoggedEvent } from "../../core/webhooks/event-log.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, safeInt, serialId, table, text } from "./table.js"

export const eventLogTable = table("event_log", {
  sequence: serialId,
  event_id: text,
  merchant_id: safeInt,
  environment: literal(Environment),
  type: text,
  object_id: text,
  body: text,
  signing_secret: literal(SigningSecret),
  created_at: int64
})

const events = tableRows(eventLogTable, (row): LoggedEvent => ({
  sequence: row.sequence,
  id: row.event_id,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  type: row.type,
  objectId: row.object_id,
  body: row.body,
  signingSecret: row.signing_secret,
  createdAt: Instant(row.created_at)
}))

const rowOf = (event: NewLoggedEvent) =>
  eventLogTable.values({
    event_id: event.id,
    merchant_id: event.merchantId,
    environment: event.environment,
    type: event.type,
    object_id: event.objectId,
    body: event.body,
    signing_secret: event.signingSecret,
    created_at: event.createdAt
  })

export const layer = Layer.effect(
  EventLog,
  Effect.map(SqlClient.SqlClient, (sql) => {
    // On PostgreSQL each row takes its final sequence at commit (migration 0032's trigger, fired per
    // row in the order the rows were inserted), so a reader past sequence n never finds a smaller one
    // later; SQLite has one writer, and a multi-row INSERT numbers its rows in the order given.
    const appendAll = (events: ReadonlyArray<NewLoggedEvent>) =>
      events.length === 0
        ? Effect.void
        : sql`INSERT INTO event_log ${sql.insert(events.map(rowOf))}`.pipe(Effect.asVoid, dbCall)
    return EventLog.of({
      append: (event) => appendAll([event]),
      appendAll,
      after: (query) =>
        sql`SELECT * FROM event_log WHERE merchant_id = ${query.merchantId} AND environment = ${query.environment}
              AND sequence > ${query.afterSequence}
            ORDER BY sequence LIMIT ${query.limit}`.pipe(Effect.flatMap(events.all), dbCall),
      latestSequence: (merchantId, environment) =>
        sql<{ readonly latest: unknown }>`SELECT MAX(sequence) AS latest FROM event_log
            WHERE merchant_id = ${merchantId} AND environment = ${environment}`.pipe(
          Effect.map((rows) => (rows[0]?.latest === null || rows[0]?.latest === undefined ? 0 : Number(rows[0].latest))),
          dbCall
        ),
      purgeBefore: (before, limit) =>
        sql`DELETE FROM event_log WHERE sequence IN (
              SELECT sequence FROM event_log WHERE created_at < ${before} ORDER BY sequence LIMIT ${limit}
            ) RETURNING sequence`.pipe(Effect.map((rows) => rows.length), dbCall)
    })
  })
)

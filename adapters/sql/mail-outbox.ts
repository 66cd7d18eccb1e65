import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import type { MailStatus, OutboxMail } from "../../core/mail/mail.js"
import type { MailContent } from "../../core/mail/mail-kind.js"
import { MAIL_KINDS } from "../../core/mail/mail-kind.js"
import { MailOutbox } from "../../core/mail/mail-outbox.js"
import { Environment } from "../../core/shared/environment.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, nullable, safeInt, table, text, typed } from "./table.js"

const MailStatusWord = Schema.Literal("pending", "sent", "failed", "captured")
const MailKindWord = Schema.Literal(...MAIL_KINDS)

export const mailOutboxTable = table("mail_outbox", {
  id: text,
  merchant_id: safeInt,
  environment: literal(Environment),
  recipient: text,
  kind: literal(MailKindWord),
  facts: text,
  locale: nullable(text),
  status: literal(MailStatusWord),
  attempts: typed(safeInt, "integer"),
  next_attempt_at: nullable(int64),
  last_error: nullable(text),
  sent_at: nullable(int64),
  created_at: int64,
  updated_at: int64
})

const mails = tableRows(mailOutboxTable, (row): OutboxMail => ({
  id: row.id,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  to: row.recipient,
  // Written by enqueue from the kind's typed facts: the JSON is the facts of this very kind.
  ...({ kind: row.kind, facts: JSON.parse(row.facts) } as MailContent),
  locale: row.locale,
  status: row.status satisfies MailStatus,
  attempts: row.attempts,
  nextAttemptAt: row.next_attempt_at === null ? null : Instant(row.next_attempt_at),
  lastError: row.last_error,
  sentAt: row.sent_at === null ? null : Instant(row.sent_at),
  createdAt: Instant(row.created_at),
  updatedAt: Instant(row.updated_at)
}))

export const layer = Layer.effect(
  MailOutbox,
  Effect.map(SqlClient.SqlClient, (sql) =>
    MailOutbox.of({
      enqueue: (mail) =>
        sql`INSERT INTO mail_outbox ${
          sql.insert({
            ...mailOutboxTable.values({
              id: mail.id,
              merchant_id: mail.merchantId,
              environment: mail.environment,
              recipient: mail.to,
              kind: mail.kind,
              facts: JSON.stringify(mail.facts),
              locale: mail.locale,
              status: mail.status,
              attempts: mail.attempts,
              next_attempt_at: mail.nextAttemptAt,
              last_error: mail.lastError,
              sent_at: mail.sentAt,
              created_at: mail.createdAt,
              updated_at: mail.updatedAt
            }),
            lease_until: null
          })
        }`.pipe(Effect.asVoid, dbCall),
      listDue: (now, leaseNow, limit) =>
        sql`SELECT * FROM mail_outbox WHERE status = 'pending' AND next_attempt_at IS NOT NULL AND next_attempt_at <= ${now}
              AND (lease_until IS NULL OR lease_until <= ${leaseNow})
            ORDER BY next_attempt_at, id LIMIT ${limit}`.pipe(Effect.flatMap(mails.all), dbCall),
      claim: (id, expected, leaseNow, leaseUntil) =>
        sql`UPDATE mail_outbox SET lease_until = ${leaseUntil}
            WHERE id = ${id} AND status = 'pending' AND next_attempt_at = ${expected}
              AND (lease_until IS NULL OR lease_until <= ${leaseNow})
            RETURNING id`.pipe(Effect.map((rows) => rows.length > 0), dbCall),
      record: (id, progress) =>
        sql`UPDATE mail_outbox SET ${
          sql.update({
            status: progress.status,
            attempts: progress.attempts,
            next_attempt_at: progress.nextAttemptAt,
            last_error: progress.lastError,
            sent_at: progress.sentAt,
            facts: JSON.stringify(progress.content.facts),
            lease_until: null,
            updated_at: progress.at
          })
        } WHERE id = ${id}`.pipe(Effect.asVoid, dbCall),
      listForMerchant: (merchantId, environment, limit) =>
        sql`SELECT * FROM mail_outbox WHERE merchant_id = ${merchantId} AND environment = ${environment}
            ORDER BY created_at DESC, id DESC LIMIT ${limit}`.pipe(Effect.flatMap(mails.all), dbCall),
      find: (merchantId, id) =>
        sql`SELECT * FROM mail_outbox WHERE merchant_id = ${merchantId} AND id = ${id}`.pipe(Effect.flatMap(mails.first), dbCall)
    }))
)

import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import type { PortalSession } from "../../core/customer-portal/portal-session.js"
import { PortalSessionRepository } from "../../core/customer-portal/portal-session-repository.js"
import { Environment } from "../../core/shared/environment.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, nullable, safeInt, table, text } from "./table.js"

export const customerPortalSessionsTable = table("customer_portal_sessions", {
  link_hash: text,
  merchant_id: safeInt,
  environment: literal(Environment),
  customer_email: text,
  return_url: text,
  link_expires_at: int64,
  session_hash: nullable(text),
  session_expires_at: nullable(int64),
  redeemed_at: nullable(int64),
  created_at: int64
})

const instantOrNull = (value: bigint | null): Instant | null => (value === null ? null : Instant(value))

const sessions = tableRows(customerPortalSessionsTable, (row): PortalSession => ({
  linkHash: row.link_hash,
  merchantId: MerchantId(row.merchant_id),
  environment: row.environment,
  customerEmail: row.customer_email,
  returnUrl: row.return_url,
  linkExpiresAt: Instant(row.link_expires_at),
  sessionHash: row.session_hash,
  sessionExpiresAt: instantOrNull(row.session_expires_at),
  redeemedAt: instantOrNull(row.redeemed_at),
  createdAt: Instant(row.created_at)
}))

export const layer = Layer.effect(
  PortalSessionRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    PortalSessionRepository.of({
      insert: (link) =>
        sql`INSERT INTO customer_portal_sessions ${
          sql.insert(customerPortalSessionsTable.values({
            link_hash: link.linkHash,
            merchant_id: link.merchantId,
            environment: link.environment,
            customer_email: link.customerEmail,
            return_url: link.returnUrl,
            link_expires_at: link.linkExpiresAt,
            session_hash: null,
            session_expires_at: null,
            redeemed_at: null,
            created_at: link.createdAt
          }))
        }`.pipe(Effect.asVoid, dbCall),
      findByLink: (linkHash) =>
        sql`SELECT * FROM customer_portal_sessions WHERE link_hash = ${linkHash}`.pipe(Effect.flatMap(sessions.first), dbCall),
      // The conditions are the single use: only the first visit inside the hour finds the row unredeemed.
      redeem: (linkHash, session, at) =>
        sql`UPDATE customer_portal_sessions
          SET session_hash = ${session.sessionHash}, session_expires_at = ${session.sessionExpiresAt}, redeemed_at = ${at}
          WHERE link_hash = ${linkHash} AND redeemed_at IS NULL AND link_expires_at > ${at}
          RETURNING *`.pipe(Effect.flatMap(sessions.first), dbCall),
      findBySession: (sessionHash) =>
        sql`SELECT * FROM customer_portal_sessions WHERE session_hash = ${sessionHash}`.pipe(Effect.flatMap(sessions.first), dbCall),
      customerSubscriptionIds: (merchantId, environment, customerEmail, limit) =>
        sql<{ readonly id: string }>`SELECT id FROM subscriptions
          WHERE merchant_id = ${merchantId} AND environment = ${environment} AND lower(customer_email) = ${customerEmail.toLowerCase()}
          ORDER BY created_at DESC, id DESC LIMIT ${limit}`.pipe(Effect.map((rows) => rows.map((row) => String(row.id))), dbCall),
      deleteExpired: (before) =>
        sql`DELETE FROM customer_portal_sessions
          WHERE link_expires_at < ${before} AND (session_expires_at IS NULL OR session_expires_at < ${before})
          RETURNING link_hash`.pipe(Effect.map((rows) => rows.length), dbCall)
    }))
)

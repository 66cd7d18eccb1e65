import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type DashboardSession, DashboardSessionRepository } from "../../core/merchant-users/dashboard-session-repository.js"
import { MerchantId } from "../../core/shared/ids.js"
import { Instant } from "../../core/shared/instant.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, safeInt, table, text } from "./table.js"

export const dashboardSessionsTable = table("dashboard_sessions", {
  id_hash: text,
  user_id: text,
  merchant_id: safeInt,
  created_at: int64,
  last_seen_at: int64
})

const sessions = tableRows(dashboardSessionsTable, (row): DashboardSession => ({
  idHash: row.id_hash,
  userId: row.user_id,
  merchantId: MerchantId(row.merchant_id),
  createdAt: Instant(row.created_at),
  lastSeenAt: Instant(row.last_seen_at)
}))

export const layer = Layer.effect(
  DashboardSessionRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    DashboardSessionRepository.of({
      create: (session) =>
        sql`INSERT INTO dashboard_sessions ${
          sql.insert(dashboardSessionsTable.values({
            id_hash: session.idHash,
            user_id: session.userId,
            merchant_id: session.merchantId,
            created_at: session.createdAt,
            last_seen_at: session.lastSeenAt
          }))
        }`.pipe(Effect.asVoid, dbCall),
      find: (idHash) => sql`SELECT * FROM dashboard_sessions WHERE id_hash = ${idHash}`.pipe(Effect.flatMap(sessions.first), dbCall),
      // Never backwards: two requests of one session touching at once leave the later time.
      touch: (idHash, lastSeenAt) =>
        sql`UPDATE dashboard_sessions SET last_seen_at = ${lastSeenAt} WHERE id_hash = ${idHash} AND last_seen_at < ${lastSeenAt}`.pipe(
          Effect.asVoid,
          dbCall
        ),
      delete: (idHash) => sql`DELETE FROM dashboard_sessions WHERE id_hash = ${idHash}`.pipe(Effect.asVoid, dbCall),
      deleteForUser: (userId) =>
        sql`DELETE FROM dashboard_sessions WHERE user_id = ${userId} RETURNING id_hash`.pipe(Effect.map((rows) => rows.length), dbCall),
      deleteExpired: (idleBefore, createdBefore) =>
        sql`DELETE FROM dashboard_sessions WHERE last_seen_at < ${idleBefore} OR created_at < ${createdBefore} RETURNING id_hash`.pipe(
          Effect.map((rows) => rows.length),
          dbCall
        )
    }))
)

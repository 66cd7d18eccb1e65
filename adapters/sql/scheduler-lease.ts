import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { SchedulerLease } from "../../core/subscriptions/scheduler-lease.js"
import { dbCall } from "./query.js"

/**
 * acquire is one upsert, so the decision and the write are one atomic step in both databases:
 * a free name is inserted; a taken one is overwritten only when it has expired or the caller
 * already holds it. PostgreSQL makes concurrent upserts of one name wait for the first and then
 * re-check the WHERE against its committed row, so exactly one of them wins; SQLite has one writer.
 * RETURNING yields a row only when the insert or the update happened, i.e. when the caller holds it.
 */
export const layer = Layer.effect(
  SchedulerLease,
  Effect.map(SqlClient.SqlClient, (sql) =>
    SchedulerLease.of({
      acquire: (name, holder, now, expiresAt) =>
        sql`INSERT INTO job_leases (name, holder, expires_at) VALUES (${name}, ${holder}, ${expiresAt})
            ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, expires_at = excluded.expires_at
            WHERE job_leases.expires_at <= ${now} OR job_leases.holder = excluded.holder
            RETURNING holder`.pipe(
          Effect.map((rows) => rows.length > 0),
          dbCall
        ),
      release: (name, holder) =>
        sql`DELETE FROM job_leases WHERE name = ${name} AND holder = ${holder}`.pipe(Effect.asVoid, dbCall)
    }))
)

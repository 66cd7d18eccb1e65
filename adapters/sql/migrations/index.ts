import * as SqlClient from "@effect/sql/SqlClient"
import * as Migrator from "@effect/sql/Migrator"
import * as Effect from "effect/Effect"
import { orStorageError } from "../storage-errors.js"
import initial from "./0001_initial.js"
import scheduler from "./0002_scheduler.js"
import gatewayPlugins from "./0003_gateway_plugins.js"
import webhookFairness from "./0004_webhook_fairness.js"
import credentialOverlap from "./0005_credential_overlap.js"
import events from "./0006_events.js"
import pausedTargets from "./0007_paused_targets.js"
import adminAudit from "./0008_admin_audit.js"
import merchantLists from "./0009_merchant_lists.js"
import merchantUsers from "./0010_merchant_users.js"
import dashboardFigures from "./0011_dashboard_figures.js"
import ipnCompatibility from "./0012_ipn_compatibility.js"
import checkoutFramesAndDeclines from "./0013_checkout_frames_and_declines.js"
import webhookSequencesAndLanes from "./0014_webhook_sequences_and_lanes.js"
import journal from "./0015_journal.js"
import payoutDestinations from "./0016_payout_destinations.js"
import payouts from "./0017_payouts.js"
import disputes from "./0018_disputes.js"
import webhookEndpoints from "./0019_webhook_endpoints.js"
import payoutRails from "./0020_payout_rails.js"
import balances from "./0021_balances.js"
import reconciliation from "./0022_reconciliation.js"
import balanceAnnouncements from "./0023_balance_announcements.js"
import testClocksAndBillingSettings from "./0024_test_clocks_and_billing_settings.js"
import savedMethods from "./0025_saved_methods.js"
import dunning from "./0026_dunning.js"
import subscriptionChanges from "./0027_subscription_changes.js"
import customerPortal from "./0028_customer_portal.js"
import invoiceNumbers from "./0029_invoice_numbers.js"
import mailOutbox from "./0030_mail_outbox.js"
import methodSetups from "./0031_method_setups.js"
import eventLog from "./0032_event_log.js"
import requestLogs from "./0033_request_logs.js"
import subscriptionLocale from "./0034_subscription_locale.js"
import webhookClaimByTarget from "./0035_webhook_claim_by_target.js"
import dashboardScale from "./0036_dashboard_scale.js"

/** Migrations are compiled in (no file globbing), so the kit runs the same from source, dist or a bundle. */
export const migrations = {
  "0001_initial": initial,
  "0002_scheduler": scheduler,
  "0003_gateway_plugins": gatewayPlugins,
  "0004_webhook_fairness": webhookFairness,
  "0005_credential_overlap": credentialOverlap,
  "0006_events": events,
  "0007_paused_targets": pausedTargets,
  "0008_admin_audit": adminAudit,
  "0009_merchant_lists": merchantLists,
  "0010_merchant_users": merchantUsers,
  "0011_dashboard_figures": dashboardFigures,
  "0012_ipn_compatibility": ipnCompatibility,
  "0013_checkout_frames_and_declines": checkoutFramesAndDeclines,
  "0014_webhook_sequences_and_lanes": webhookSequencesAndLanes,
  "0015_journal": journal,
  "0016_payout_destinations": payoutDestinations,
  "0017_payouts": payouts,
  "0018_disputes": disputes,
  "0019_webhook_endpoints": webhookEndpoints,
  "0020_payout_rails": payoutRails,
  "0021_balances": balances,
  "0022_reconciliation": reconciliation,
  "0023_balance_announcements": balanceAnnouncements,
  "0024_test_clocks_and_billing_settings": testClocksAndBillingSettings,
  "0025_saved_methods": savedMethods,
  "0026_dunning": dunning,
  "0027_subscription_changes": subscriptionChanges,
  "0028_customer_portal": customerPortal,
  "0029_invoice_numbers": invoiceNumbers,
  "0030_mail_outbox": mailOutbox,
  "0031_method_setups": methodSetups,
  "0032_event_log": eventLog,
  "0033_request_logs": requestLogs,
  "0034_subscription_locale": subscriptionLocale,
  "0035_webhook_claim_by_target": webhookClaimByTarget,
  "0036_dashboard_scale": dashboardScale
}

const migrate = Migrator.make({})

export const MIGRATIONS_TABLE = "mp_migrations"

/** An arbitrary key of our own for PostgreSQL's advisory lock: "mp-migrate" as a number. */
const MIGRATION_LOCK = 0x6d706d6967

/**
 * Applies pending migrations; safe when several hosts start at once, even on an empty database.
 * @effect/sql's migrator creates its table before it locks it, and two PostgreSQL first starts racing
 * on that CREATE TABLE make one fail; so on PostgreSQL the table is created first, by one host at a
 * time (an advisory lock held for that short transaction), with the migrator's own definition. The
 * migrator then locks the table while it migrates. SQLite has one writer.
 */
export const runMigrations = orStorageError(
  Effect.flatMap(SqlClient.SqlClient, (sql) => {
    const run = migrate({ loader: Migrator.fromRecord(migrations), table: MIGRATIONS_TABLE })
    return sql.onDialectOrElse({
      pg: () =>
        Effect.zipRight(
          sql.withTransaction(Effect.zipRight(
            sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`,
            sql`CREATE TABLE IF NOT EXISTS ${sql(MIGRATIONS_TABLE)} (
              migration_id integer primary key,
              created_at timestamp with time zone not null default now(),
              name text not null
            )`
          )),
          run
        ),
      orElse: () => run
    })
  })
)

/** The migrations compiled in that the store has not applied (another host may be migrating it now). */
export const pendingMigrations = Effect.flatMap(SqlClient.SqlClient, (sql) =>
  Effect.map(
    sql<{ readonly migration_id: unknown }>`SELECT migration_id FROM ${sql(MIGRATIONS_TABLE)}`,
    (rows) => {
      const applied = new Set(rows.map((row) => Number(row.migration_id)))
      return Object.keys(migrations).filter((name) => !applied.has(Number(name.slice(0, name.indexOf("_")))))
    }
  ))

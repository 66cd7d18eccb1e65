import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import {
  type BillingSettings,
  BillingSettingsRepository,
  defaultBillingSettings,
  DunningFinalAction
} from "../../core/subscriptions/billing-settings.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { boolean, int64, intList, literal, safeInt, table } from "./table.js"

export const billingSettingsTable = table("billing_settings", {
  merchant_id: safeInt,
  retry_hours: intList,
  reminder_days: intList,
  grace_days: safeInt,
  final_action: literal(DunningFinalAction),
  portal_cancellation: boolean,
  updated_at: int64
})

const settingsRows = tableRows(billingSettingsTable, (row): BillingSettings => ({
  retryHours: row.retry_hours,
  reminderDays: row.reminder_days,
  graceDays: row.grace_days,
  finalAction: row.final_action,
  portalCancellation: row.portal_cancellation
}))

export const layer = Layer.effect(
  BillingSettingsRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    BillingSettingsRepository.of({
      get: (merchantId) =>
        sql`SELECT * FROM billing_settings WHERE merchant_id = ${merchantId}`.pipe(
          Effect.flatMap(settingsRows.first),
          Effect.map(Option.getOrElse(() => defaultBillingSettings)),
          dbCall
        ),
      put: (merchantId, settings, at) => {
        const row = billingSettingsTable.values({
          merchant_id: merchantId,
          retry_hours: settings.retryHours,
          reminder_days: settings.reminderDays,
          grace_days: settings.graceDays,
          final_action: settings.finalAction,
          portal_cancellation: settings.portalCancellation,
          updated_at: at
        })
        return sql`INSERT INTO billing_settings ${sql.insert(row)}
          ON CONFLICT (merchant_id) DO UPDATE SET retry_hours = excluded.retry_hours,
            reminder_days = excluded.reminder_days, grace_days = excluded.grace_days,
            final_action = excluded.final_action, portal_cancellation = excluded.portal_cancellation,
            updated_at = excluded.updated_at`.pipe(Effect.asVoid, dbCall)
      }
    }))
)

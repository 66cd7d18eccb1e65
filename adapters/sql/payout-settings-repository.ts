import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { PayoutSchedule, defaultPayoutSettings, type PayoutSettings } from "../../core/balances/payout-settings.js"
import { PayoutSettingsRepository } from "../../core/balances/payout-settings-repository.js"
import { Amount } from "../../core/money/amount.js"
import { MerchantId } from "../../core/shared/ids.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, literal, nullable, safeInt, table } from "./table.js"

export const payoutSettingsTable = table("payout_settings", {
  merchant_id: safeInt,
  payout_delay_days: nullable(safeInt),
  reserve_percent: int64,
  reserve_days: safeInt,
  payout_schedule: literal(PayoutSchedule),
  payout_minimum: int64,
  updated_at: int64
})

const settingsRows = tableRows(payoutSettingsTable, (row): PayoutSettings => ({
  payoutDelayDays: row.payout_delay_days,
  reservePercent: Amount(row.reserve_percent),
  reserveDays: row.reserve_days,
  payoutSchedule: row.payout_schedule,
  payoutMinimum: Amount(row.payout_minimum)
}))

const merchantIds = tableRows(payoutSettingsTable, (row) => MerchantId(row.merchant_id))

export const layer = Layer.effect(
  PayoutSettingsRepository,
  Effect.map(SqlClient.SqlClient, (sql) =>
    PayoutSettingsRepository.of({
      get: (merchantId) =>
        sql`SELECT * FROM payout_settings WHERE merchant_id = ${merchantId}`.pipe(
          Effect.flatMap(settingsRows.first),
          Effect.map(Option.getOrElse(() => defaultPayoutSettings)),
          dbCall
        ),
      put: (merchantId, settings, at) => {
        const row = payoutSettingsTable.values({
          merchant_id: merchantId,
          payout_delay_days: settings.payoutDelayDays,
          reserve_percent: settings.reservePercent,
          reserve_days: settings.reserveDays,
          payout_schedule: settings.payoutSchedule,
          payout_minimum: settings.payoutMinimum,
          updated_at: at
        })
        return sql`INSERT INTO payout_settings ${sql.insert(row)}
          ON CONFLICT (merchant_id) DO UPDATE SET payout_delay_days = excluded.payout_delay_days,
            reserve_percent = excluded.reserve_percent, reserve_days = excluded.reserve_days,
            payout_schedule = excluded.payout_schedule, payout_minimum = excluded.payout_minimum,
            updated_at = excluded.updated_at`.pipe(Effect.asVoid, dbCall)
      },
      approvedOnSchedule: (schedule) =>
        sql`SELECT s.* FROM payout_settings s JOIN merchants m ON m.id = s.merchant_id
          WHERE s.payout_schedule = ${schedule} AND m.status = 'approved' ORDER BY s.merchant_id`.pipe(
          Effect.flatMap(merchantIds.all),
          dbCall
        )
    }))
)

import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { SettingsRepository } from "../../core/settings/settings-repository.js"
import { now } from "../../core/shared/instant.js"
import { dbCall } from "./query.js"

export const layer = Layer.effect(
  SettingsRepository,
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    return SettingsRepository.of({
      get: (key) =>
        sql<{ value: string }>`SELECT value FROM settings WHERE setting_key = ${key}`.pipe(
          Effect.map((rows) => Option.fromNullable(rows[0]?.value)),
          dbCall
        ),
      getAll: sql<{ setting_key: string; value: string }>`SELECT setting_key, value FROM settings`.pipe(
        Effect.map((rows) => new Map(rows.map((row) => [row.setting_key, row.value] as const))),
        dbCall
      ),
      set: (key, valueJson) =>
        Effect.flatMap(now, (at) =>
          sql`INSERT INTO settings (setting_key, value, updated_at) VALUES (${key}, ${valueJson}, ${at})
              ON CONFLICT (setting_key) DO UPDATE SET value = excluded.value, updated_at = excluded.updated_at`).pipe(
          Effect.asVoid,
          dbCall
        )
    })
  })
)

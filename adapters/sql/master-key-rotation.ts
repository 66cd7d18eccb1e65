import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { resealValue, resealWithin, type RotationKeys } from "../../core/signing/reseal.js"
import { orStorageError } from "./storage-errors.js"

/**
 * Every column the store keeps sealed text in. `whole`: the value is one sealed secret; `within`:
 * sealed values sit inside other text (a gateway config's JSON). A migration that adds sealed text
 * adds it here; the rotation test scans every text column and fails on one left under the old key.
 */
export const SEALED_COLUMNS = [
  { table: "merchant_credentials", key: ["merchant_id", "environment"], column: "sealed_client_secret", form: "whole" },
  { table: "merchant_credentials", key: ["merchant_id", "environment"], column: "sealed_webhook_secret", form: "whole" },
  { table: "retired_credentials", key: ["id"], column: "sealed_client_secret", form: "whole" },
  { table: "retired_credentials", key: ["id"], column: "sealed_webhook_secret", form: "whole" },
  { table: "gateways", key: ["id"], column: "config", form: "within" },
  { table: "payout_destinations", key: ["id"], column: "sealed_iban", form: "whole" }
] as const

export class SealedValueUnreadable extends Schema.TaggedError<SealedValueUnreadable>()("SealedValueUnreadable", {
  message: Schema.String
}) {}

/** A row changed between the read and the write: a host wrote a secret while the command ran. */
export class SealedValueChanged extends Schema.TaggedError<SealedValueChanged>()("SealedValueChanged", {
  message: Schema.String
}) {}

export interface ResealReport {
  /** Values now under the next key that were under the previous one. */
  readonly resealed: number
  /** Values already under the next key (a rerun, or written by a host holding both keys). */
  readonly alreadyCurrent: number
}

type Column = (typeof SEALED_COLUMNS)[number]

const resealColumn = (sql: SqlClient.SqlClient, keys: RotationKeys, spec: Column) =>
  Effect.gen(function*() {
    const rows = yield* sql<Record<string, unknown>>`SELECT ${sql.csv(spec.key.map((name) => sql`${sql(name)}`))}, ${sql(spec.column)} AS sealed_value FROM ${sql(spec.table)}`
    let resealed = 0
    let alreadyCurrent = 0
    for (const row of rows) {
      const stored = String(row["sealed_value"])
      // A row with nothing sealed in this column (a Stripe account destination has no IBAN) holds ''.
      if (stored === "") continue
      const where = sql.and(spec.key.map((name) => sql`${sql(name)} = ${row[name] as string | number}`))
      const next = spec.form === "whole"
        ? Either.map(resealValue(keys, stored), (text) => ({ text, resealed: Option.isSome(text) ? 1 : 0, alreadyCurrent: Option.isSome(text) ? 0 : 1 }))
        : resealWithin(keys, stored)
      if (Either.isLeft(next)) {
        const at = spec.key.map((name) => `${name} ${String(row[name])}`).join(", ")
        // Where, never what: the message names the row, not the value.
        return yield* new SealedValueUnreadable({ message: `${spec.table}.${spec.column} (${at}) opens under neither MASTER_KEY nor MASTER_KEY_PREVIOUS` })
      }
      alreadyCurrent += next.right.alreadyCurrent
      if (Option.isNone(next.right.text)) continue
      // Compare and set: a value a host rewrote meanwhile is not overwritten with the stale one.
      const updated = yield* sql`UPDATE ${sql(spec.table)} SET ${sql(spec.column)} = ${next.right.text.value} WHERE ${where} AND ${sql(spec.column)} = ${stored} RETURNING 1 AS one`
      if (updated.length !== 1) {
        // A row purged meanwhile (an ended overlap) holds nothing to re-seal; one rewritten is a race to run again.
        const still = yield* sql`SELECT 1 AS one FROM ${sql(spec.table)} WHERE ${where}`
        if (still.length === 0) continue
        return yield* new SealedValueChanged({ message: `${spec.table}.${spec.column} changed while rotating; nothing was re-sealed, run the command again` })
      }
      resealed += next.right.resealed
    }
    return { resealed, alreadyCurrent }
  })

/**
 * Re-seals every sealed value in the store under `keys.next`, in one transaction: on any failure
 * nothing is written, so the store is never half under one key and half under another.
 */
export const resealStore = (keys: RotationKeys) =>
  Effect.flatMap(SqlClient.SqlClient, (sql) =>
    sql.withTransaction(Effect.reduce(SEALED_COLUMNS, { resealed: 0, alreadyCurrent: 0 } as ResealReport, (total, spec) =>
      Effect.map(resealColumn(sql, keys, spec), (report) => ({
        resealed: total.resealed + report.resealed,
        alreadyCurrent: total.alreadyCurrent + report.alreadyCurrent
      }))))).pipe(orStorageError)

import * as SqlClient from "@effect/sql/SqlClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Option from "effect/Option"
import { CheckoutFrameAncestors } from "../../core/merchants/checkout-frames.js"
import { dbCall } from "./query.js"
import { tableRows } from "./row-mapper.js"
import { int64, safeInt, table, text } from "./table.js"

/** One row per merchant; the origins space-separated, as CSP writes them (an origin holds no space). */
export const checkoutFrameAncestorsTable = table("checkout_frame_ancestors", {
  merchant_id: safeInt,
  origins: text,
  updated_at: int64
})

const origins = tableRows(checkoutFrameAncestorsTable, (row) => row.origins.split(" ").filter((origin) => origin !== ""))

export const layer = Layer.effect(
  CheckoutFrameAncestors,
  Effect.map(SqlClient.SqlClient, (sql) =>
    CheckoutFrameAncestors.of({
      get: (merchantId) =>
        sql`SELECT * FROM checkout_frame_ancestors WHERE merchant_id = ${merchantId}`.pipe(
          Effect.flatMap(origins.first),
          Effect.map(Option.getOrElse((): ReadonlyArray<string> => [])),
          dbCall
        ),
      replace: (merchantId, list, at) =>
        sql`INSERT INTO checkout_frame_ancestors ${sql.insert(checkoutFrameAncestorsTable.values({ merchant_id: merchantId, origins: list.join(" "), updated_at: at }))}
            ON CONFLICT (merchant_id) DO UPDATE SET origins = excluded.origins, updated_at = excluded.updated_at`.pipe(Effect.asVoid, dbCall)
    }))
)

import * as SqlClient from "@effect/sql/SqlClient"
import * as Migrator from "@effect/sql/Migrator"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import type * as Layer from "effect/Layer"
import { migrations, MIGRATIONS_TABLE, runMigrations } from "../migrations/index.js"

const before0018 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0018"))

/**
 * Migration 0018 lets wallets go below zero on a store with wallets and entries in it: every row kept
 * with its id, the entries still pointing at their wallets, foreign keys still enforced, the next
 * wallet's id after the last, and a balance below zero now written. `client` is a bare, unmigrated
 * SqlClient of the dialect.
 */
export const walletsBelowZero = (name: string, client: Layer.Layer<SqlClient.SqlClient, unknown>): void =>
  layer(client, { excludeTestServices: true, timeout: "120 seconds" })(`migration 0018, wallets below zero: ${name}`, (it) => {
    it.effect("keeps every wallet, its id and its entries; refuses nothing below zero any more, and still refuses an entry of no wallet", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* Migrator.make({})({ loader: Migrator.fromRecord(before0018), table: MIGRATIONS_TABLE })
        const [merchant] = yield* sql<{ readonly id: number }>`INSERT INTO merchants (name, status, fee_percent, fee_fixed, created_at, updated_at)
          VALUES ('Old shop', 'approved', 0, 0, 1, 1) RETURNING id`
        const walletIds: Array<number> = []
        for (const [currency, balance] of [["USD", 500n], ["EUR", 0n], ["JPY", 9_007_199_254_740_993n]] as const) {
          const [row] = yield* sql<{ readonly id: number }>`INSERT INTO wallets (merchant_id, currency, environment, balance, active, created_at, updated_at)
            VALUES (${merchant!.id}, ${currency}, 'sandbox', ${balance}, 1, 1, 1) RETURNING id`
          walletIds.push(Number(row!.id))
        }
        yield* sql`INSERT INTO ledger_entries (wallet_id, kind, delta, balance_after, reference, memo, created_at)
          VALUES (${walletIds[0]!}, 'adjustment', 500, 500, 'admin', NULL, 1)`
        const refused = yield* Effect.either(sql`UPDATE wallets SET balance = -1 WHERE id = ${walletIds[1]!}`)
        expect(refused._tag).toBe("Left")

        yield* runMigrations

        const rows = yield* sql<{ readonly id: unknown; readonly currency: string; readonly balance: unknown }>`SELECT id, currency, CAST(balance AS TEXT) AS balance FROM wallets ORDER BY id`
        expect(rows.map((row) => [Number(row.id), row.currency, String(row.balance)])).toEqual([
          [walletIds[0], "USD", "500"], [walletIds[1], "EUR", "0"], [walletIds[2], "JPY", "9007199254740993"]
        ])
        const joined = yield* sql<{ readonly currency: string }>`SELECT w.currency FROM ledger_entries le JOIN wallets w ON w.id = le.wallet_id`
        expect(joined.map((row) => row.currency)).toEqual(["USD"])
        yield* sql`UPDATE wallets SET balance = -45 WHERE id = ${walletIds[1]!}`
        const [negative] = yield* sql<{ readonly balance: unknown }>`SELECT balance FROM wallets WHERE id = ${walletIds[1]!}`
        expect(String(negative!.balance)).toBe("-45")
        const duplicate = yield* Effect.either(sql`INSERT INTO wallets (merchant_id, currency, environment, balance, active, created_at, updated_at)
          VALUES (${merchant!.id}, 'USD', 'sandbox', 0, 1, 1, 1)`)
        expect(duplicate._tag).toBe("Left")
        const orphan = yield* Effect.either(sql`INSERT INTO ledger_entries (wallet_id, kind, delta, balance_after, reference, memo, created_at)
          VALUES (987654321, 'adjustment', 1, 1, 'admin', NULL, 1)`)
        expect(orphan._tag).toBe("Left")
        const [next] = yield* sql<{ readonly id: number }>`INSERT INTO wallets (merchant_id, currency, environment, balance, active, created_at, updated_at)
          VALUES (${merchant!.id}, 'GBP', 'sandbox', 0, 1, 1, 1) RETURNING id`
        expect(Number(next!.id)).toBeGreaterThan(Math.max(...walletIds))
      }))
  })

import * as SqlClient from "@effect/sql/SqlClient"
import * as Migrator from "@effect/sql/Migrator"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { OPENING_BALANCES, walletAccount } from "../../../core/ledger/account.js"
import { Ledger } from "../../../core/ledger/ledger.js"
import { Amount } from "../../../core/money/amount.js"
import { MerchantId, WalletId } from "../../../core/shared/ids.js"
import { WalletRepository } from "../../../core/wallets/wallet-repository.js"
import * as SqlLedger from "../ledger-repository.js"
import { migrations, MIGRATIONS_TABLE, runMigrations } from "../migrations/index.js"
import * as SqlWallets from "../wallet-repository.js"

const before0015 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0015"))

const sumOf = (accounts: ReadonlyArray<{ readonly balance: bigint }>) => accounts.reduce((sum, each) => sum + each.balance, 0n)

/**
 * A store with money in its wallets before the journal existed opens its books at migration 0015:
 * each book sums to zero, each wallet's account is minus its balance, and postings go on from there.
 * `client` is a bare, unmigrated SqlClient of the dialect.
 */
export const openingEntries = (name: string, client: Layer.Layer<SqlClient.SqlClient, unknown>): void =>
  layer(
    Layer.mergeAll(SqlLedger.layer, SqlWallets.layer).pipe(Layer.provideMerge(client)),
    { excludeTestServices: true, timeout: "120 seconds" }
  )(`opening entries: ${name}`, (it) => {
    it.effect("every wallet's balance becomes one balanced opening entry, and postings continue the books", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* Migrator.make({})({ loader: Migrator.fromRecord(before0015), table: MIGRATIONS_TABLE })
        const merchant = (name: string) =>
          Effect.map(
            sql<{ readonly id: number }>`INSERT INTO merchants (name, status, fee_percent, fee_fixed, created_at, updated_at)
              VALUES (${name}, 'approved', 0, 0, 1, 1) RETURNING id`,
            ([row]) => MerchantId(Number(row!.id))
          )
        const wallet = (merchantId: MerchantId, currency: string, environment: string, balance: bigint) =>
          Effect.map(
            sql<{ readonly id: number }>`INSERT INTO wallets (merchant_id, currency, environment, balance, active, created_at, updated_at)
              VALUES (${merchantId}, ${currency}, ${environment}, ${balance}, 1, 1, 1) RETURNING id`,
            ([row]) => WalletId(Number(row!.id))
          )
        const shop = yield* merchant("Old shop")
        const other = yield* merchant("Other shop")
        const shopUsd = yield* wallet(shop, "USD", "production", 12_345_000_000n)
        yield* wallet(shop, "USD", "sandbox", 7n)
        yield* wallet(shop, "EUR", "production", 0n)
        // Past 2^53: the opening entry keeps every atom.
        yield* wallet(other, "USD", "production", 9_007_199_254_740_993n)
        yield* runMigrations

        const ledger = yield* Ledger
        const production = yield* ledger.balances("production", "USD")
        expect(production).toEqual([
          { account: walletAccount(shop), balance: -12_345_000_000n },
          { account: walletAccount(other), balance: -9_007_199_254_740_993n },
          { account: OPENING_BALANCES, balance: 12_345_000_000n + 9_007_199_254_740_993n }
        ].sort((a, b) => a.account < b.account ? -1 : 1))
        expect(sumOf(production)).toBe(0n)
        expect(yield* ledger.balances("sandbox", "USD")).toEqual([
          { account: walletAccount(shop), balance: -7n },
          { account: OPENING_BALANCES, balance: 7n }
        ].sort((a, b) => a.account < b.account ? -1 : 1))
        // A wallet with nothing in it opens nothing.
        expect(yield* ledger.balances("production", "EUR")).toEqual([])

        // The next entry takes a fresh id after the opening ones (PostgreSQL's identity moved past them).
        yield* (yield* WalletRepository).post({ walletId: shopUsd, kind: "refund_debit", delta: Amount(-345_000_000n), reference: "after" })
        const after = yield* ledger.balances("production", "USD")
        expect(after.find((each) => each.account === walletAccount(shop))?.balance).toBe(-12_000_000_000n)
        expect(sumOf(after)).toBe(0n)
      }))
  })

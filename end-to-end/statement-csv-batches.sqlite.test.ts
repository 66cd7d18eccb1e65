// The statement CSV across many batches, on a file store (so its rows come through the direct
// reader): every entry once, in order, and nothing written after the export began.
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { Chunk, Effect, Layer, ManagedRuntime, Stream } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import * as SqliteStorage from "../adapters/sqlite/sqlite-storage.js"
import { MerchantRepository } from "../core/merchants/merchant-repository.js"
import { Amount } from "../core/money/amount.js"
import * as CurrencyCatalog from "../core/money/currency-catalog.js"
import { now } from "../core/shared/instant.js"
import { statementCsv } from "../core/wallets/statement-csv.js"
import { WalletRepository } from "../core/wallets/wallet-repository.js"

const ENTRIES = 23
const BATCH = 5

const runtime = ManagedRuntime.make(Layer.merge(
  SqliteStorage.layer({ filename: join(mkdtempSync(join(tmpdir(), "mp-statement-batches-")), "store.db") }),
  CurrencyCatalog.layer()
))
afterAll(() => runtime.dispose())

/** Appends `count` credits of 0.01 USD after the wallet's last entry, each with its running balance. */
const append = (walletId: number, count: number) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    const at = yield* now
    for (let n = 0; n < count; n++) {
      yield* sql`INSERT INTO ledger_entries (wallet_id, kind, delta, balance_after, reference, memo, created_at)
        SELECT ${walletId}, 'payment_credit', 1000000, COALESCE(MAX(balance_after), 0) + 1000000, 'SANDBOX_' || (COUNT(*) + 1), NULL, ${at}
        FROM ledger_entries WHERE wallet_id = ${walletId}`
    }
  }).pipe(Effect.provideService(SqlClient.SafeIntegers, true))

describe("statement CSV across batches (SQLite file store)", () => {
  it("has each entry once, oldest first, and stops at the newest entry of when it began", async () => {
    const { scope, walletId } = await runtime.runPromise(Effect.gen(function*() {
      const merchant = yield* (yield* MerchantRepository).create({ name: "Batch Shop", status: "approved", feePercent: Amount(0n), feeFixed: Amount(0n) })
      const wallet = yield* (yield* WalletRepository).create({ merchantId: merchant.id, currency: "USD", environment: "sandbox" })
      yield* append(wallet.id, ENTRIES)
      return { scope: { merchant, environment: "sandbox" as const }, walletId: wallet.id }
    }))
    const ledger = await runtime.runPromise(Effect.flatMap(WalletRepository, (wallets) => wallets.ledgerBefore(walletId, { limit: 1000 })))
    const ids = ledger.map((entry) => String(entry.id)).reverse()
    expect(ids).toHaveLength(ENTRIES)

    // Entries written while the export runs (after its first batch) are not part of it.
    const csv = await runtime.runPromise(statementCsv(scope, walletId, { batchSize: BATCH }))
    let chunks = 0
    const text = await runtime.runPromise(csv.pipe(
      Stream.tap(() => chunks++ === 1 ? append(walletId, 3) : Effect.void),
      Stream.runCollect,
      Effect.map((all) => Chunk.toReadonlyArray(all).join(""))
    ))

    const lines = text.split("\r\n")
    expect(lines.pop()).toBe("")
    expect(lines[0]).toBe("entry_id,created_at,kind,amount,balance_after,currency,payment_trx_id,refund_trx_id,reference,memo")
    const rows = lines.slice(1).map((line) => line.split(","))
    expect(rows.map((cells) => cells[0])).toEqual(ids)
    expect(rows.map((cells) => cells[8])).toEqual(ids.map((_, n) => `SANDBOX_${n + 1}`))
    expect(rows[rows.length - 1]!.slice(2, 7)).toEqual(["payment_credit", "0.01", "0.23", "USD", `SANDBOX_${ENTRIES}`])
    // The header, then one chunk per batch of five: 23 entries in five batches.
    expect(chunks).toBe(1 + Math.ceil(ENTRIES / BATCH))
  })
})

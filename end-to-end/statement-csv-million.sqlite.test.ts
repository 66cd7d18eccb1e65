import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { setFlagsFromString } from "node:v8"
import { runInNewContext } from "node:vm"
import { SqlClient } from "@effect/sql"
import { Effect, Layer, ManagedRuntime, Stream } from "effect"
import { afterAll, describe, expect, it } from "vitest"
import * as SqliteStorage from "../adapters/sqlite/sqlite-storage.js"
import { MerchantRepository } from "../core/merchants/merchant-repository.js"
import { Amount } from "../core/money/amount.js"
import * as CurrencyCatalog from "../core/money/currency-catalog.js"
import { now } from "../core/shared/instant.js"
import { STATEMENT_CSV_BATCH, statementCsv } from "../core/wallets/statement-csv.js"
import { WalletRepository } from "../core/wallets/wallet-repository.js"

const ROWS = 1_000_000
const CREDIT = 2_000_000n // 0.02 USD
const DEBIT = -1_000_000n // every third entry

// What must stay bounded is the live heap: garbage waits for the collector as long as V8 likes, so
// the heap is measured after a full collection, which this exposes without a flag on the command line.
setFlagsFromString("--expose-gc")
const collectGarbage = runInNewContext("gc") as () => void
const liveHeap = () => {
  collectGarbage()
  return process.memoryUsage().heapUsed
}

const runtime = ManagedRuntime.make(Layer.merge(
  SqliteStorage.layer({ filename: join(mkdtempSync(join(tmpdir(), "mp-statement-")), "store.db") }),
  CurrencyCatalog.layer()
))
afterAll(() => runtime.dispose())

/** A wallet whose ledger holds ROWS entries, written in one statement, each with its running balance. */
const bigLedger = Effect.gen(function*() {
  const merchant = yield* (yield* MerchantRepository).create({ name: "Busy Shop", status: "approved", feePercent: Amount(0n), feeFixed: Amount(0n) })
  const wallet = yield* (yield* WalletRepository).create({ merchantId: merchant.id, currency: "USD", environment: "sandbox" })
  const sql = yield* SqlClient.SqlClient
  const start = yield* now
  const delta = (n: string) => sql.literal(`CASE WHEN ${n} % 3 = 0 THEN ${DEBIT} ELSE ${CREDIT} END`)
  yield* sql`WITH RECURSIVE entries(n, balance) AS (
      SELECT 1, ${sql.literal(String(CREDIT))}
      UNION ALL SELECT n + 1, balance + ${delta("(n + 1)")} FROM entries WHERE n < ${ROWS}
    )
    INSERT INTO ledger_entries (wallet_id, kind, delta, balance_after, reference, memo, created_at)
    SELECT ${wallet.id}, CASE WHEN n % 3 = 0 THEN 'refund_debit' ELSE 'payment_credit' END, ${delta("n")}, balance,
      'SANDBOX_' || n, NULL, ${start} + n FROM entries`
  yield* sql`UPDATE wallets SET balance = (SELECT balance_after FROM ledger_entries WHERE wallet_id = ${wallet.id} ORDER BY id DESC LIMIT 1)
    WHERE id = ${wallet.id}`
  return { scope: { merchant, environment: "sandbox" as const }, walletId: wallet.id }
}).pipe(Effect.provideService(SqlClient.SafeIntegers, true))

describe("statement CSV of a million ledger entries (SQLite)", () => {
  it("streams every line in constant memory, ending on the wallet's balance", async () => {
    const { scope, walletId } = await runtime.runPromise(bigLedger)
    const debits = BigInt(Math.floor(ROWS / 3))
    const balance = (BigInt(ROWS) - debits) * CREDIT + debits * DEBIT
    const stored = await runtime.runPromise(Effect.flatMap(WalletRepository, (wallets) => wallets.findById(walletId)))
    expect(stored._tag === "Some" && stored.value.balance).toBe(balance)

    const baseline = liveHeap()
    const csv = await runtime.runPromise(statementCsv(scope, walletId))
    let peak = baseline
    let chunks = 0
    let lines = 0
    let last = ""
    await runtime.runPromise(Stream.runForEach(csv, (chunk) =>
      Effect.sync(() => {
        const records = chunk.split("\r\n")
        lines += records.length - 1
        last = records[records.length - 2] ?? last
        // Every 10 batches (and the first): an export held whole would be live from the first chunk on.
        if (chunks++ % 10 === 1) peak = Math.max(peak, liveHeap())
      })))

    expect(lines).toBe(ROWS + 1)
    // 10,000.01 USD: the last line's balance_after, in major units with the currency's two digits.
    expect(last.split(",").slice(2, 6)).toEqual(["payment_credit", "0.02", "10000.01", "USD"])
    expect(balance).toBe(1_000_001_000_000n)
    // Holding the whole export would take well over 100 MB of text alone.
    expect(chunks).toBe(1 + Math.ceil(ROWS / STATEMENT_CSV_BATCH))
    expect(peak - baseline).toBeLessThan(64 * 1024 * 1024)
  }, 60_000)
})

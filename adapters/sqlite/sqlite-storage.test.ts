import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { migrations } from "../sql/migrations/index.js"
import { clientLayer } from "./sqlite-storage.js"

describe("SQLite store opens durable", () => {
  it("uses WAL, FULL sync, enforced foreign keys and a busy timeout, and is migrated", async () => {
    const filename = join(mkdtempSync(join(tmpdir(), "mp-sqlite-")), "store.db")
    const read = Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      const pragma = (name: string) => Effect.map(sql.unsafe<Record<string, unknown>>(`PRAGMA ${name}`), (rows) => Object.values(rows[0]!)[0])
      return {
        journal: yield* pragma("journal_mode"),
        synchronous: yield* pragma("synchronous"),
        foreignKeys: yield* pragma("foreign_keys"),
        busyTimeout: yield* pragma("busy_timeout"),
        tables: (yield* sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name`).map((r) => r.name)
      }
    })
    const result = await read.pipe(Effect.provide(clientLayer({ filename })), Effect.runPromise)
    expect(result.journal).toBe("wal")
    expect(result.synchronous).toBe(2) // FULL
    expect(result.foreignKeys).toBe(1)
    expect(result.busyTimeout).toBe(5000)
    expect(result.tables).toEqual(expect.arrayContaining(["merchants", "wallets", "ledger_entries", "payments", "mp_migrations"]))
  })

  it("migrating an already migrated file changes nothing", async () => {
    const filename = join(mkdtempSync(join(tmpdir(), "mp-sqlite-")), "store.db")
    const count = Effect.flatMap(SqlClient.SqlClient, (sql) => sql<{ n: number }>`SELECT COUNT(*) AS n FROM mp_migrations`)
    const first = await count.pipe(Effect.provide(clientLayer({ filename })), Effect.runPromise)
    const second = await count.pipe(Effect.provide(clientLayer({ filename })), Effect.runPromise)
    expect(second).toEqual(first)
    expect(Number(first[0]!.n)).toBe(Object.keys(migrations).length)
  })
})

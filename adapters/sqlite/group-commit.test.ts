import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqlClient } from "@effect/sql"
import { describe, expect, it } from "@effect/vitest"
import Database from "better-sqlite3"
import { Effect, Either, Layer } from "effect"
import { toStorageError } from "../sql/storage-errors.js"
import * as GroupCommit from "./group-commit.js"
import { clientLayer } from "./sqlite-storage.js"

/** A store with the grouped client, and a second, independent connection that sees only what was committed. */
const store = () => {
  const filename = join(mkdtempSync(join(tmpdir(), "mp-group-commit-")), "store.db")
  const layer = GroupCommit.layer.pipe(Layer.provide(clientLayer({ filename })))
  const observer = () => new Database(filename, { readonly: true })
  return { layer, observer }
}

const setUp = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`CREATE TABLE IF NOT EXISTS probe (name TEXT PRIMARY KEY)`)
const insert = (name: string) => Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO probe (name) VALUES (${name})`)
const names = (db: Database.Database) => (db.prepare("SELECT name FROM probe ORDER BY name").all() as Array<{ name: string }>).map((row) => row.name)
const transaction = <A, E, R>(effect: Effect.Effect<A, E, R>) => Effect.flatMap(SqlClient.SqlClient, (sql) => sql.withTransaction(effect))

describe("SQLite group commit", () => {
  it.scoped("transactions in flight together share one commit: none is visible outside, or answered, before it", () => {
    const { layer, observer } = store()
    return Effect.gen(function*() {
      yield* setUp
      const outside = observer()
      // Offered in this order, they run in this order on one batch: the second sees the first's row
      // while the outside connection does not: they are one transaction, not yet committed.
      const first = transaction(insert("a"))
      const second = transaction(Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        const inside = yield* sql<{ name: string }>`SELECT name FROM probe ORDER BY name`
        yield* insert("b")
        return { inside: inside.map((row) => row.name), outside: names(outside) }
      }))
      const [, seen] = yield* Effect.all([first, second], { concurrency: "unbounded" })
      expect(seen).toEqual({ inside: ["a"], outside: [] })
      // Answered means committed: the independent connection sees both at once.
      expect(names(outside)).toEqual(["a", "b"])
      outside.close()
    }).pipe(Effect.provide(layer))
  })

  it.scoped("a transaction that fails rolls back alone; the others of its batch commit", () => {
    const { layer, observer } = store()
    return Effect.gen(function*() {
      yield* setUp
      const results = yield* Effect.all(
        ["c", "d", "e", "f"].map((name) =>
          Effect.either(transaction(name === "d" ? Effect.zipRight(insert(name), Effect.fail("refused" as const)) : insert(name)))),
        { concurrency: "unbounded" }
      )
      expect(results.map(Either.isRight)).toEqual([true, false, true, true])
      const outside = observer()
      expect(names(outside)).toEqual(["c", "e", "f"])
      outside.close()
    }).pipe(Effect.provide(layer))
  })

  it.scoped("a nested transaction is a savepoint of its own: its failure undoes only itself", () => {
    const { layer, observer } = store()
    return Effect.gen(function*() {
      yield* setUp
      yield* transaction(Effect.gen(function*() {
        yield* insert("g")
        yield* Effect.either(transaction(Effect.zipRight(insert("h"), Effect.fail("inner" as const))))
        yield* insert("i")
      }))
      const outside = observer()
      expect(names(outside)).toEqual(["g", "i"])
      outside.close()
    }).pipe(Effect.provide(layer))
  })

  it.scoped("a full disk that makes SQLite roll the whole batch back: each transaction is told so, none committed behind its answer", () => {
    const { layer, observer } = store()
    return Effect.gen(function*() {
      yield* setUp
      const sql = yield* SqlClient.SqlClient
      // SQLite answers SQLITE_FULL and rolls back the whole transaction, not just the statement,
      // when a page cannot be had: here a page limit stands in for the disk.
      const [counted] = yield* sql<{ page_count: number | bigint }>`PRAGMA page_count`
      yield* sql.unsafe(`PRAGMA max_page_count = ${Number(counted!.page_count) + 2}`)
      const big = Effect.flatMap(SqlClient.SqlClient, (sql) => sql`INSERT INTO probe (name) VALUES (${"x".repeat(100_000)})`)
      const results = yield* Effect.all(
        ["j", "big", "k", "l"].map((name) => Effect.either(transaction(name === "big" ? big : insert(name)))),
        { concurrency: "unbounded" }
      )
      const outside = observer()
      const committed = names(outside)
      outside.close()
      // Told done exactly when committed: nothing answered as failed was written, nothing answered as done was lost.
      const answeredDone = ["j", "big", "k", "l"].filter((_, i) => Either.isRight(results[i]!))
      expect(committed).toEqual(answeredDone)
      // One batch, in this order: j's work went with big's rollback; k and l went on in a new transaction.
      expect(results.map(Either.isRight)).toEqual([false, false, true, true])
      // Every refusal is the outage it was (503 with Retry-After at the edge), never a defect.
      for (const result of results) {
        if (Either.isLeft(result)) expect(toStorageError(result.left).unavailable).toBe(true)
      }
    }).pipe(Effect.provide(layer))
  })

  it.scoped("200 concurrent transactions: every one committed once its answer arrives, all of them in the end", () => {
    const { layer, observer } = store()
    return Effect.gen(function*() {
      yield* setUp
      const outside = observer()
      const visibleOnAnswer = yield* Effect.all(
        Array.from({ length: 200 }, (_, i) =>
          Effect.map(transaction(insert(`n${String(i).padStart(3, "0")}`)), () =>
            outside.prepare("SELECT count(*) AS n FROM probe WHERE name = ?").get(`n${String(i).padStart(3, "0")}`) as { n: number })),
        { concurrency: "unbounded" }
      )
      expect(visibleOnAnswer.every((row) => row.n === 1)).toBe(true)
      expect(names(outside)).toHaveLength(200)
      outside.close()
    }).pipe(Effect.provide(layer))
  })
})

import { existsSync, renameSync, rmSync, statSync } from "node:fs"
import * as SqlClient from "@effect/sql/SqlClient"
import * as SqliteClient from "@effect/sql-sqlite-node/SqliteClient"
import * as Data from "effect/Data"
import * as Effect from "effect/Effect"
import { MIGRATIONS_TABLE } from "../sql/migrations/index.js"

export class BackupFailed extends Data.TaggedError("BackupFailed")<{ readonly message: string }> {}

export interface BackupReport {
  readonly file: string
  readonly bytes: number
  readonly migrations: number
}

/**
 * `PRAGMA integrity_check` on the copy and the schema's own record, with a connection of its own;
 * the copy is then made one self-contained file (rollback journal), which a host opening it turns
 * back to WAL.
 */
const checkCopy = (file: string) =>
  Effect.gen(function*() {
    const sql = yield* SqlClient.SqlClient
    yield* sql.unsafe("PRAGMA journal_mode = DELETE")
    const integrity = yield* sql<{ readonly integrity_check: string }>`PRAGMA integrity_check`
    const verdict = integrity.map((row) => row.integrity_check).join("; ")
    if (verdict !== "ok") return yield* new BackupFailed({ message: `the copy failed PRAGMA integrity_check: ${verdict}` })
    const migrations = yield* sql<{ readonly n: number }>`SELECT COUNT(*) AS n FROM ${sql(MIGRATIONS_TABLE)}`
    return Number(migrations[0]?.n ?? 0)
  }).pipe(Effect.provide(SqliteClient.layer({ filename: file })), Effect.scoped)

/**
 * A consistent copy of a SQLite store that may be serving right now: `VACUUM INTO`, one statement
 * under one read snapshot, so WAL lets the serving host write on meanwhile and no write can make it
 * start over (the step-wise backup API restarts whenever another process writes between steps, and
 * the driver offers no one-step copy). It is written beside `destination` and moved there only once
 * `PRAGMA integrity_check` passed on it, so a failed or interrupted backup never leaves a file that
 * looks like one. An existing file is never replaced.
 */
export const backupSqlite = (source: string, destination: string) =>
  Effect.gen(function*() {
    if (!existsSync(source)) return yield* new BackupFailed({ message: `there is no SQLite store at ${source}` })
    if (existsSync(destination)) return yield* new BackupFailed({ message: `${destination} exists; back up to a new file` })
    const partial = `${destination}.partial`
    rmSync(partial, { force: true })
    yield* Effect.flatMap(SqlClient.SqlClient, (sql) =>
      Effect.zipRight(sql.unsafe("PRAGMA busy_timeout = 5000"), sql.unsafe("VACUUM INTO ?", [partial]))).pipe(
      Effect.provide(SqliteClient.layer({ filename: source })),
      Effect.scoped,
      Effect.mapError((error) => new BackupFailed({ message: `SQLite could not copy the store: ${"cause" in error ? String(error.cause) : String(error)}` }))
    )
    const migrations = yield* checkCopy(partial).pipe(
      Effect.mapError((error) => (error instanceof BackupFailed ? error : new BackupFailed({ message: `the copy could not be read: ${error.message}` })))
    )
    yield* Effect.sync(() => renameSync(partial, destination))
    const report: BackupReport = { file: destination, bytes: statSync(destination).size, migrations }
    return report
  }).pipe(Effect.ensuring(Effect.sync(() => rmSync(`${destination}.partial`, { force: true }))))

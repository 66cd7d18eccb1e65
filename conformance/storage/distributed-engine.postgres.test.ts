import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import * as Redacted from "effect/Redacted"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import * as PostgresStorage from "../../adapters/postgres/postgres-storage.js"
import { createDistributedLikeDatabase, type DistributedLikeDatabase } from "../support/distributed-postgres.js"
import { makeListenNotifyGuard, type ListenNotifyGuard } from "../support/listen-notify-guard.js"
import { storageConformance } from "./suite.js"

/**
 * The storage conformance suite on PostgreSQL constrained to what CockroachDB and YugabyteDB offer
 * (docs/scaling.md): a non-superuser role whose session advisory locks and pg_notify are revoked,
 * whose transactions are serializable by default, and whose LISTEN/NOTIFY/UNLISTEN statements are
 * refused on the wire. Passing it means the kit needs none of those and retries 40001 itself.
 */
const baseUrl = process.env["TEST_DATABASE_URL"]
const SUITE = "postgres constrained as the distributed engines are"

const sqlState = (error: unknown): string | undefined => {
  for (let at: unknown = error; typeof at === "object" && at !== null; at = (at as { cause?: unknown }).cause) {
    const code = (at as { code?: unknown }).code
    if (typeof code === "string") return code
  }
  return undefined
}

/** What one statement answers on the constrained role's own connection: its rows or its SQLSTATE. */
const run = (url: string, guard: ListenNotifyGuard, statement: string) =>
  Effect.runPromise(
    Effect.flatMap(PgClient.PgClient, (sql) => sql.unsafe<Record<string, unknown>>(statement)).pipe(
      Effect.match({ onFailure: (error) => ({ failed: sqlState(error) ?? String(error) }), onSuccess: (rows) => ({ rows }) }),
      Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1, stream: guard.stream }))
    )
  )

if (baseUrl === undefined || baseUrl === "") {
  console.warn(`${SUITE} SKIPPED: TEST_DATABASE_URL is not set`)
  describe.skip(`storage conformance: ${SUITE} (TEST_DATABASE_URL not set)`, () => {
    it("runs only with TEST_DATABASE_URL", () => {})
  })
} else {
  describe(`${SUITE}: the role refuses what those engines lack`, () => {
    let database: DistributedLikeDatabase | undefined
    const guard = makeListenNotifyGuard()
    const on = (statement: string) => run(database!.url, guard, statement)
    beforeAll(async () => {
      database = await createDistributedLikeDatabase(baseUrl)
    })
    afterAll(() => database?.drop())

    it("is no superuser, and its transactions are serializable unless told otherwise", async () => {
      expect(await on("SELECT rolsuper, current_setting('default_transaction_isolation') AS isolation FROM pg_roles WHERE rolname = current_user"))
        .toEqual({ rows: [{ rolsuper: false, isolation: "serializable" }] })
    })

    it("may not take, try or release a session-level advisory lock, in any overload", async () => {
      const calls = [
        "pg_advisory_lock(1)", "pg_advisory_lock(1, 2)", "pg_advisory_lock_shared(1)", "pg_advisory_lock_shared(1, 2)",
        "pg_try_advisory_lock(1)", "pg_try_advisory_lock(1, 2)", "pg_try_advisory_lock_shared(1)", "pg_try_advisory_lock_shared(1, 2)",
        "pg_advisory_unlock(1)", "pg_advisory_unlock(1, 2)", "pg_advisory_unlock_shared(1)", "pg_advisory_unlock_shared(1, 2)",
        "pg_advisory_unlock_all()"
      ]
      for (const call of calls) expect([call, await on(`SELECT ${call}`)]).toEqual([call, { failed: "42501" }])
    })

    it("may still take transaction-scoped advisory locks, which all three engines' PostgreSQL dialects keep", async () => {
      expect(await on("SELECT count(*)::int AS locked, bool_and(tried) AS tried FROM (SELECT pg_advisory_xact_lock(1), pg_try_advisory_xact_lock(1, 2) AS tried) AS l"))
        .toEqual({ rows: [{ locked: 1, tried: true }] })
    })

    it("may not notify by function, and LISTEN, UNLISTEN and NOTIFY never leave the client", async () => {
      expect(await on("SELECT pg_notify('mp', 'x')")).toEqual({ failed: "42501" })
      for (const statement of ["LISTEN mp", "  /* c */ UNLISTEN *", "notify mp, 'x'", "SELECT 1; LISTEN mp"]) {
        expect(await on(statement)).toHaveProperty("failed")
      }
      expect(guard.refused).toEqual(["LISTEN mp", "  /* c */ UNLISTEN *", "notify mp, 'x'", "SELECT 1; LISTEN mp"])
    })
  })

  const suiteGuard = makeListenNotifyGuard()
  storageConformance(
    SUITE,
    Layer.unwrapScoped(
      Effect.acquireRelease(
        Effect.promise(() => createDistributedLikeDatabase(baseUrl)),
        (database) => Effect.promise(() => database.drop()).pipe(Effect.ignore)
      ).pipe(Effect.map((database) =>
        PostgresStorage.layerFromClient(PostgresStorage.pgClientLayer({ url: database.url }, { stream: suiteGuard.stream }))
      ))
    )
  )

  describe(`${SUITE}: after the suite`, () => {
    it("no LISTEN, UNLISTEN or NOTIFY was sent", () => {
      expect(suiteGuard.refused).toEqual([])
    })
  })
}

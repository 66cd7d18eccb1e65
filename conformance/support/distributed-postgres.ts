import { randomBytes } from "node:crypto"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"

/** Runs statements in order on a short-lived single connection to `url`, then closes it. */
const runStatements = (url: string, statements: ReadonlyArray<string>) =>
  Effect.runPromise(
    Effect.flatMap(PgClient.PgClient, (sql) => Effect.forEach(statements, (statement) => sql.unsafe(statement), { discard: true })).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
    )
  )

const query = <A extends object>(url: string, statement: string) =>
  Effect.runPromise(
    Effect.flatMap(PgClient.PgClient, (sql) => sql.unsafe<A>(statement)).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 }))
    )
  )

/** Session-level advisory locks (docs/scaling.md: the distributed engines lack them); transaction-scoped ones stay. */
export const SESSION_ADVISORY_LOCK_FUNCTIONS = [
  "pg_advisory_lock",
  "pg_advisory_lock_shared",
  "pg_try_advisory_lock",
  "pg_try_advisory_lock_shared",
  "pg_advisory_unlock",
  "pg_advisory_unlock_shared",
  "pg_advisory_unlock_all"
] as const

export interface DistributedLikeDatabase {
  /** The constrained role's URL to the new database. */
  readonly url: string
  /** The role that owns the database and that `url` logs in as. */
  readonly role: string
  /** Drops the database, then the role. */
  readonly drop: () => Promise<void>
}

/**
 * A fresh database owned by a fresh non-superuser role, set up so PostgreSQL itself refuses what the
 * distributed engines (Citus workers aside, CockroachDB and YugabyteDB) lack or do differently:
 * - EXECUTE on every overload of the session-level advisory lock functions is revoked from PUBLIC
 *   in that database, so any use fails with 42501;
 * - EXECUTE on pg_notify is revoked the same way (the NOTIFY and LISTEN statements need no
 *   privilege: the client's listen-notify guard refuses those on the wire);
 * - the role's default_transaction_isolation is serializable (ALTER ROLE ... SET), as on CockroachDB,
 *   so every transaction and every lone statement may fail with 40001 under concurrency.
 * `adminUrl`'s role must be a superuser: only the functions' owner may revoke EXECUTE on them.
 */
export const createDistributedLikeDatabase = async (adminUrl: string): Promise<DistributedLikeDatabase> => {
  const [admin] = await query<{ readonly rolsuper: boolean }>(adminUrl, "SELECT rolsuper FROM pg_roles WHERE rolname = current_user")
  if (admin?.rolsuper !== true) {
    throw new Error("The distributed-engine compatibility suite needs TEST_DATABASE_URL's role to be a superuser (to revoke EXECUTE on pg_catalog functions)")
  }
  const name = `mp_dist_${randomBytes(6).toString("hex")}`
  const password = randomBytes(12).toString("hex")
  const revoke = (names: ReadonlyArray<string>) =>
    `DO $$ DECLARE f regprocedure; BEGIN
       FOR f IN SELECT oid::regprocedure FROM pg_proc WHERE proname IN (${names.map((n) => `'${n}'`).join(", ")}) LOOP
         EXECUTE format('REVOKE EXECUTE ON FUNCTION %s FROM PUBLIC', f);
       END LOOP; END $$`
  await runStatements(adminUrl, [
    `CREATE ROLE ${name} LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '${password}'`,
    `ALTER ROLE ${name} SET default_transaction_isolation = 'serializable'`,
    `CREATE DATABASE ${name} OWNER ${name}`
  ])
  const inDatabase = new URL(adminUrl)
  inDatabase.pathname = `/${name}`
  await runStatements(inDatabase.toString(), [revoke(SESSION_ADVISORY_LOCK_FUNCTIONS), revoke(["pg_notify"])])
  const url = new URL(inDatabase)
  url.username = name
  url.password = password
  return {
    url: url.toString(),
    role: name,
    drop: async () => {
      await runStatements(adminUrl, [`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`, `DROP ROLE IF EXISTS ${name}`])
    }
  }
}

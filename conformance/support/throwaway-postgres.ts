import { randomBytes } from "node:crypto"
import * as PgClient from "@effect/sql-pg/PgClient"
import * as Effect from "effect/Effect"
import * as Redacted from "effect/Redacted"

/** Runs one statement on a short-lived single connection to `url`, then closes it. */
const runStatement = (url: string, statement: string): Promise<void> =>
  Effect.runPromise(
    Effect.flatMap(PgClient.PgClient, (sql) => sql.unsafe(statement)).pipe(
      Effect.provide(PgClient.layer({ url: Redacted.make(url), maxConnections: 1 })),
      Effect.asVoid
    )
  )

export interface ThrowawayDatabase {
  /** The new database's URL: `baseUrl` with its database name replaced. */
  readonly url: string
  /** Drops the database, disconnecting whoever is still in it. */
  readonly drop: () => Promise<void>
}

/**
 * A fresh, empty database beside the one `baseUrl` names (its user must be allowed to create
 * databases), so a host under test starts from nothing and leaves nothing behind.
 */
export const createThrowawayDatabase = async (baseUrl: string): Promise<ThrowawayDatabase> => {
  const name = `mp_http_${randomBytes(6).toString("hex")}`
  await runStatement(baseUrl, `CREATE DATABASE ${name}`)
  const url = new URL(baseUrl)
  url.pathname = `/${name}`
  return {
    url: url.toString(),
    drop: () => runStatement(baseUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)
  }
}

import { randomBytes } from "node:crypto"
import { PgClient } from "@effect/sql-pg"
import { Effect, Layer, Redacted } from "effect"

/**
 * A throw-away database beside the one `baseUrl` names, created for one suite and dropped after it,
 * so suites running in parallel never see each other's rows or migrations.
 */
export const freshDatabase = <A, E, R>(baseUrl: string, use: (url: string) => Layer.Layer<A, E, R>) =>
  Layer.unwrapScoped(
    Effect.gen(function*() {
      const name = `mp_test_${randomBytes(6).toString("hex")}`
      const admin = yield* Layer.build(PgClient.layer({ url: Redacted.make(baseUrl), maxConnections: 1 }))
      const sql = PgClient.PgClient.pipe(Effect.provide(admin))
      yield* Effect.acquireRelease(
        Effect.flatMap(sql, (client) => client.unsafe(`CREATE DATABASE ${name}`)),
        () => Effect.flatMap(sql, (client) => client.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).pipe(Effect.ignore)
      )
      const url = new URL(baseUrl)
      url.pathname = `/${name}`
      return use(url.toString())
    }).pipe(Effect.orDie)
  )

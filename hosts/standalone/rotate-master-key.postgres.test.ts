import { PgClient } from "@effect/sql-pg"
import { Redacted } from "effect"
import { describe } from "vitest"
import { onThrowawayPostgres } from "../../conformance/support/on-throwaway-postgres.js"
import { childHostSuite } from "../../testing/hosts/child-host-suite.js"
import { masterKeyRotationSuite } from "../../testing/hosts/master-key-rotation-suite.js"

describe("master key rotation: postgres", () => {
  childHostSuite("mp-rotate-pg-", { receiver: false })
  onThrowawayPostgres("master key rotation", (databaseUrl) => {
    masterKeyRotationSuite(() => ({
      database: databaseUrl(),
      databaseUrl: databaseUrl(),
      client: () => PgClient.layer({ url: Redacted.make(databaseUrl()), maxConnections: 2 })
    }))
  })
})

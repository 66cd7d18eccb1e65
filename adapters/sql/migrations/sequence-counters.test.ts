import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { SqliteClient } from "@effect/sql-sqlite-node"
import * as SqlClient from "@effect/sql/SqlClient"
import * as Migrator from "@effect/sql/Migrator"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MerchantId } from "../../../core/shared/ids.js"
import { WebhookOutbox } from "../../../core/webhooks/webhook-outbox.js"
import * as SqlWebhookOutbox from "../webhook-outbox.js"
import { migrations, MIGRATIONS_TABLE, runMigrations } from "./index.js"

const before0014 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0014"))

const client = SqliteClient.layer({ filename: join(mkdtempSync(join(tmpdir(), "mp-sequences-")), "store.db") })

/**
 * A store with events numbered the old way (the highest number of the object's events, plus one)
 * keeps numbering each object from where it stands once the counters take over.
 */
layer(Layer.merge(client, SqlWebhookOutbox.layer.pipe(Layer.provide(client))), { excludeTestServices: true })("sequence counters", (it) => {
  it.effect("an object's events continue from the highest number queued before the migration", () =>
    Effect.gen(function*() {
      const sql = yield* SqlClient.SqlClient
      yield* Migrator.make({})({ loader: Migrator.fromRecord(before0014), table: MIGRATIONS_TABLE })
      const [merchant] = yield* sql<{ readonly id: number }>`INSERT INTO merchants (name, status, fee_percent, fee_fixed, created_at, updated_at)
        VALUES ('Old events', 'approved', 0, 0, 1, 1) RETURNING id`
      const old = (id: string, environment: string, objectId: string | null, sequence: number | null) =>
        sql`INSERT INTO webhook_deliveries ${
          sql.insert({
            id, merchant_id: merchant!.id, environment, event: "payment.completed", url: "https://shop.example/ipn",
            target: "https://shop.example", body: "{}", signing_secret: "webhook_secret", object_id: objectId, sequence,
            status: "delivered", attempts: 1, created_at: 1, updated_at: 1
          })
        }`
      yield* old("evt_a1", "sandbox", "pay_a", 1)
      yield* old("evt_a2", "sandbox", "pay_a", 2)
      yield* old("evt_a7", "sandbox", "pay_a", 7)
      yield* old("evt_b1", "production", "pay_a", 1)
      yield* old("evt_legacy", "sandbox", null, null)
      yield* runMigrations

      const outbox = yield* WebhookOutbox
      let queued = 0
      const next = (environment: "sandbox" | "production", objectId: string) =>
        Effect.map(outbox.enqueue({
          id: `evt_${environment}_${objectId}_${++queued}`,
          merchantId: MerchantId(merchant!.id), environment, event: "payment.refunded", url: "https://shop.example/ipn",
          body: "{}", signingSecret: "client_secret", nextAttemptAt: null, objectId
        }), (delivery) => delivery.sequence)
      expect(yield* next("sandbox", "pay_a")).toBe(8)
      expect(yield* next("sandbox", "pay_a")).toBe(9)
      expect(yield* next("production", "pay_a")).toBe(2)
      expect(yield* next("sandbox", "pay_new")).toBe(1)
    }))
})

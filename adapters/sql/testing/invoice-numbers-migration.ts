import * as SqlClient from "@effect/sql/SqlClient"
import * as Migrator from "@effect/sql/Migrator"
import { expect, layer } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { Amount } from "../../../core/money/amount.js"
import { makeManualClock } from "../../../core/shared/manual-clock.js"
import { SubscriptionRepository } from "../../../core/subscriptions/subscription-repository.js"
import * as SqlSubscriptions from "../subscription-repository.js"
import { migrations, MIGRATIONS_TABLE, runMigrations } from "../migrations/index.js"

const before0029 = Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "0029"))

const micros = (millis: number) => BigInt(millis) * 1000n

/**
 * A store with invoices issued before numbering: 0029 numbers them oldest first per merchant,
 * environment and year, and new invoices continue each series from there. `client` is a bare,
 * unmigrated SqlClient of the dialect.
 */
export const invoiceNumbersMigration = (name: string, client: Layer.Layer<SqlClient.SqlClient, unknown>): void =>
  layer(Layer.merge(client, SqlSubscriptions.layer.pipe(Layer.provide(client))), { excludeTestServices: true, timeout: "120 seconds" })(`migration 0029, invoice numbers: ${name}`, (it) => {
    it.effect("numbers the invoices already issued and continues each series after them", () =>
      Effect.gen(function*() {
        const sql = yield* SqlClient.SqlClient
        yield* Migrator.make({})({ loader: Migrator.fromRecord(before0029), table: MIGRATIONS_TABLE })
        const merchant = (merchantName: string) =>
          Effect.map(sql<{ readonly id: number }>`INSERT INTO merchants (name, status, fee_percent, fee_fixed, created_at, updated_at)
            VALUES (${merchantName}, 'approved', 0, 0, 1, 1) RETURNING id`, (rows) => rows[0]!.id)
        const subscription = (id: string, merchantId: number, environment: string) =>
          sql`INSERT INTO subscriptions ${
            sql.insert({
              id, merchant_id: merchantId, environment, external_reference: id, status: "active", billing_cycle: "monthly",
              amount: 100, currency: "USD", customer_email: "payer@example.test", success_redirect: "https://shop.example/ok",
              cancel_redirect: "https://shop.example/no", ipn_url: "https://shop.example/ipn", allow_payment_methods: "[]",
              metadata: "{}", cancel_at_period_end: 0, created_at: 1, updated_at: 1
            })
          }`
        const invoice = (id: string, subscriptionId: string, sequence: number, createdMillis: number) =>
          sql`INSERT INTO subscription_invoices ${
            sql.insert({
              id, subscription_id: subscriptionId, sequence, reference: `INV-${id}`, status: "paid", amount: 100, currency: "USD",
              created_at: micros(createdMillis), updated_at: micros(createdMillis)
            })
          }`
        const a = yield* merchant("A")
        const b = yield* merchant("B")
        yield* subscription("sub_a", a, "sandbox")
        yield* subscription("sub_a2", a, "sandbox")
        yield* subscription("sub_a_live", a, "production")
        yield* subscription("sub_b", b, "sandbox")
        yield* invoice("a1", "sub_a", 1, Date.UTC(2025, 10, 1))
        yield* invoice("a2", "sub_a2", 1, Date.UTC(2025, 11, 1))
        yield* invoice("a3", "sub_a", 2, Date.UTC(2025, 11, 2))
        yield* invoice("a4", "sub_a", 3, Date.UTC(2026, 0, 1))
        yield* invoice("live1", "sub_a_live", 1, Date.UTC(2025, 11, 5))
        yield* invoice("b1", "sub_b", 1, Date.UTC(2025, 11, 3))
        yield* runMigrations

        const numbered = yield* sql<{ readonly id: string; readonly number: string }>`SELECT id, number FROM subscription_invoices ORDER BY id`
        expect(Object.fromEntries(numbered.map((row) => [row.id, row.number]))).toEqual({
          a1: "INV-2025-000001",
          a2: "INV-2025-000002",
          a3: "INV-2025-000003",
          a4: "INV-2026-000001",
          b1: "INV-2025-000001",
          live1: "INV-2025-000001"
        })

        const repo = yield* SubscriptionRepository
        const next = (subscriptionId: string, sequence: number, millis: number) =>
          Effect.map(Effect.withClock(repo.insertInvoice({
            id: `${subscriptionId}_${sequence}`, subscriptionId, sequence, reference: `INV-${subscriptionId}-${sequence}`, status: "pending",
            amount: Amount(100n), currency: "USD", trxId: null, periodStart: null, periodEnd: null, checkoutExpiresAt: null, paidAt: null
          }), makeManualClock(millis).clock), (created) => created.number)
        expect(yield* next("sub_a", 4, Date.UTC(2026, 0, 2))).toBe("INV-2026-000002")
        expect(yield* next("sub_a2", 2, Date.UTC(2025, 11, 31))).toBe("INV-2025-000004")
        expect(yield* next("sub_b", 2, Date.UTC(2026, 0, 2))).toBe("INV-2026-000001")
      }))
  })

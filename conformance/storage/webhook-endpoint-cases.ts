import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { Environment } from "../../core/shared/environment.js"
import type { MerchantId } from "../../core/shared/ids.js"
import { fromSeconds, plusSeconds } from "../../core/shared/instant.js"
import type { WebhookEndpoint } from "../../core/webhooks/webhook-endpoint.js"
import { WebhookEndpointRepository } from "../../core/webhooks/webhook-endpoint-repository.js"
import { makeMerchant, unique } from "./fixtures.js"
import type { StorageIt } from "./storage-it.js"

const AT = fromSeconds(1_900_000_000)

const endpoint = (merchantId: MerchantId, environment: Environment, second: number, overrides: Partial<WebhookEndpoint> = {}): WebhookEndpoint => ({
  id: unique("we"),
  merchantId,
  environment,
  url: `https://hooks.example/${unique("path")}`,
  events: ["payout.*", "payment.completed"],
  description: null,
  status: "enabled",
  createdAt: plusSeconds(AT, second),
  updatedAt: plusSeconds(AT, second),
  ...overrides
})

export const webhookEndpointCases = (it: StorageIt) => {
  it.effect("webhook endpoints: kept per merchant and environment, listed oldest first, events and text round trip exact", () =>
    Effect.gen(function*() {
      const repo = yield* WebhookEndpointRepository
      const merchant = yield* makeMerchant()
      const other = yield* makeMerchant()
      const second = endpoint(merchant.id, "sandbox", 2, { events: ["*"], description: "Ledger sync: \"é\" ✓", status: "disabled" })
      const first = endpoint(merchant.id, "sandbox", 1, { url: "https://hooks.example/a?b=c&d=%C3%A9" })
      expect(yield* repo.create(second, 16)).toBe(true)
      expect(yield* repo.create(first, 16)).toBe(true)
      expect(yield* repo.create(endpoint(merchant.id, "production", 3), 16)).toBe(true)
      expect(yield* repo.create(endpoint(other.id, "sandbox", 4), 16)).toBe(true)
      expect(yield* repo.list(merchant.id, "sandbox")).toEqual([first, second])
      expect((yield* repo.list(merchant.id, "production")).map((row) => row.environment)).toEqual(["production"])
      expect(yield* repo.find(merchant.id, "sandbox", second.id)).toEqual(Option.some(second))
      expect(Option.isNone(yield* repo.find(other.id, "sandbox", second.id))).toBe(true)
      expect(Option.isNone(yield* repo.find(merchant.id, "production", second.id))).toBe(true)
    }))

  it.effect("webhook endpoints: an update changes only what it names, only for the merchant in its environment", () =>
    Effect.gen(function*() {
      const repo = yield* WebhookEndpointRepository
      const merchant = yield* makeMerchant()
      const other = yield* makeMerchant()
      const kept = endpoint(merchant.id, "sandbox", 1, { description: "before" })
      yield* repo.create(kept, 16)
      const later = plusSeconds(AT, 60)
      expect(Option.isNone(yield* repo.update(other.id, "sandbox", kept.id, { status: "disabled", at: later }))).toBe(true)
      expect(Option.isNone(yield* repo.update(merchant.id, "production", kept.id, { status: "disabled", at: later }))).toBe(true)
      const disabled = yield* repo.update(merchant.id, "sandbox", kept.id, { status: "disabled", at: later })
      expect(disabled).toEqual(Option.some({ ...kept, status: "disabled", updatedAt: later }))
      const moved = yield* repo.update(merchant.id, "sandbox", kept.id, { url: "https://hooks.example/new", events: ["dispute.created"], description: null, at: later })
      expect(moved).toEqual(Option.some({ ...kept, url: "https://hooks.example/new", events: ["dispute.created"], description: null, status: "disabled", updatedAt: later }))
      expect(yield* repo.find(merchant.id, "sandbox", kept.id)).toEqual(moved)
    }))

  it.effect("webhook endpoints: removed only by their merchant in their environment, once", () =>
    Effect.gen(function*() {
      const repo = yield* WebhookEndpointRepository
      const merchant = yield* makeMerchant()
      const other = yield* makeMerchant()
      const kept = endpoint(merchant.id, "sandbox", 1)
      yield* repo.create(kept, 16)
      expect(yield* repo.remove(other.id, "sandbox", kept.id)).toBe(false)
      expect(yield* repo.remove(merchant.id, "production", kept.id)).toBe(false)
      expect(yield* repo.list(merchant.id, "sandbox")).toEqual([kept])
      expect(yield* repo.remove(merchant.id, "sandbox", kept.id)).toBe(true)
      expect(yield* repo.remove(merchant.id, "sandbox", kept.id)).toBe(false)
      expect(yield* repo.list(merchant.id, "sandbox")).toEqual([])
    }))

  it.effect("webhook endpoints: the limit counts the merchant's in the environment, even when added at once", () =>
    Effect.gen(function*() {
      const repo = yield* WebhookEndpointRepository
      const merchant = yield* makeMerchant()
      const added = yield* Effect.all(Array.from({ length: 6 }, (_, i) => repo.create(endpoint(merchant.id, "sandbox", i), 3)), { concurrency: "unbounded" })
      expect(added.filter((created) => created)).toHaveLength(3)
      expect(yield* repo.list(merchant.id, "sandbox")).toHaveLength(3)
      expect(yield* repo.create(endpoint(merchant.id, "production", 10), 3)).toBe(true)
      const [oldest] = yield* repo.list(merchant.id, "sandbox")
      yield* repo.remove(merchant.id, "sandbox", oldest!.id)
      expect(yield* repo.create(endpoint(merchant.id, "sandbox", 11), 3)).toBe(true)
      expect(yield* repo.create(endpoint(merchant.id, "sandbox", 12), 3)).toBe(false)
    }))
}

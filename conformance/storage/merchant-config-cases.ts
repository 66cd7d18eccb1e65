import { expect } from "@effect/vitest"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { CheckoutFrameAncestors } from "../../core/merchants/checkout-frames.js"
import { CredentialRepository, type NewCredentials } from "../../core/merchants/credentials.js"
import { MerchantCurrencyRepository } from "../../core/merchants/currency-repository.js"
import { GatewayRepository } from "../../core/gateways/gateway-repository.js"
import { SettingsRepository } from "../../core/settings/settings-repository.js"
import type { MerchantId } from "../../core/shared/ids.js"
import { makeMerchant, unique } from "./fixtures.js"
import { fromSeconds, plusSeconds } from "../../core/shared/instant.js"
import type { StorageIt } from "./storage-it.js"

const credentialsFor = (merchantId: MerchantId, environment: "sandbox" | "production", merchantKey = unique("mk")): NewCredentials => ({
  merchantId,
  environment,
  merchantKey,
  apiKeyHash: unique("hash"),
  sealedClientSecret: unique("sealed-cs"),
  sealedWebhookSecret: unique("sealed-wh")
})

/** The wall-clock moment lookups are made at, and a few seconds around it, for the overlap cases. */
const AT = fromSeconds(1_900_000_000)

export const merchantConfigCases = (it: StorageIt) => {
  it.effect("checkout frame ancestors: none until set, replaced whole in the order given, per merchant", () =>
    Effect.gen(function*() {
      const frames = yield* CheckoutFrameAncestors
      const merchant = yield* makeMerchant()
      const other = yield* makeMerchant()
      expect(yield* frames.get(merchant.id)).toEqual([])
      yield* frames.replace(merchant.id, ["https://shop.example", "https://b.example:8443"], AT)
      yield* frames.replace(other.id, ["https://other.example"], AT)
      expect(yield* frames.get(merchant.id)).toEqual(["https://shop.example", "https://b.example:8443"])
      yield* frames.replace(merchant.id, ["https://b.example:8443"], plusSeconds(AT, 1))
      expect(yield* frames.get(merchant.id)).toEqual(["https://b.example:8443"])
      yield* frames.replace(merchant.id, [], plusSeconds(AT, 2))
      expect(yield* frames.get(merchant.id)).toEqual([])
      expect(yield* frames.get(other.id)).toEqual(["https://other.example"])
    }))

  it.effect("credentials: round trip, rotation invalidates the old set, merchant keys unique per environment", () =>
    Effect.gen(function*() {
      const repo = yield* CredentialRepository
      const merchant = yield* makeMerchant()
      const first = yield* repo.rotate(credentialsFor(merchant.id, "sandbox"))
      expect(yield* repo.findByMerchantKey("sandbox", first.merchantKey, AT)).toEqual(Option.some(first))
      expect(yield* repo.findByMerchantKey("production", first.merchantKey, AT)).toEqual(Option.none())

      const rotated = yield* repo.rotate(credentialsFor(merchant.id, "sandbox"))
      expect(yield* repo.findByMerchantKey("sandbox", first.merchantKey, AT)).toEqual(Option.none())
      expect(yield* repo.findForMerchant(merchant.id, "sandbox")).toEqual(Option.some(rotated))

      // The same key string in the other environment is a different credential.
      const production = yield* repo.rotate(credentialsFor(merchant.id, "production", rotated.merchantKey))
      expect(yield* repo.findByMerchantKey("production", rotated.merchantKey, AT)).toEqual(Option.some(production))

      // Another merchant cannot take a key in use; the failed rotation leaves its old set working.
      const other = yield* makeMerchant()
      const othersSet = yield* repo.rotate(credentialsFor(other.id, "sandbox"))
      const clash = yield* Effect.flip(repo.rotate(credentialsFor(other.id, "sandbox", rotated.merchantKey)))
      expect(clash._tag).toBe("MerchantKeyTaken")
      expect(yield* repo.findForMerchant(other.id, "sandbox")).toEqual(Option.some(othersSet))
    }))

  it.effect("credentials: 10 concurrent rotations all land whole and exactly one set stays valid", () =>
    Effect.gen(function*() {
      const repo = yield* CredentialRepository
      const merchant = yield* makeMerchant()
      const issued = yield* Effect.all(Array.from({ length: 10 }, () => repo.rotate(credentialsFor(merchant.id, "production"))), {
        concurrency: "unbounded"
      })
      const stored = Option.getOrThrow(yield* repo.findForMerchant(merchant.id, "production"))
      expect(issued.map((set) => set.merchantKey)).toContain(stored.merchantKey)
      const valid = yield* Effect.all(issued.map((set) => repo.findByMerchantKey("production", set.merchantKey, AT)))
      expect(valid.filter(Option.isSome).map((set) => set.value)).toEqual([stored])
    }))

  it.effect("credentials: a set replaced with an overlap stays valid, sealed, until it retires, then is destroyed", () =>
    Effect.gen(function*() {
      const repo = yield* CredentialRepository
      const merchant = yield* makeMerchant()
      const first = yield* repo.rotate(credentialsFor(merchant.id, "sandbox"))
      const second = yield* repo.rotate(credentialsFor(merchant.id, "sandbox"), { retireAt: plusSeconds(AT, 60) })
      const third = yield* repo.rotate(credentialsFor(merchant.id, "sandbox"), { retireAt: plusSeconds(AT, 30) })

      // Both replaced sets answer by their own key until they retire, each with its own moment.
      const firstAsRetired = { ...first, retiresAt: plusSeconds(AT, 60) }
      const secondAsRetired = { ...second, retiresAt: plusSeconds(AT, 30) }
      expect(yield* repo.findByMerchantKey("sandbox", first.merchantKey, AT)).toEqual(Option.some(firstAsRetired))
      expect(yield* repo.findByMerchantKey("sandbox", second.merchantKey, AT)).toEqual(Option.some(secondAsRetired))
      expect(yield* repo.findByMerchantKey("production", first.merchantKey, AT)).toEqual(Option.none())
      expect(yield* repo.liveSets(merchant.id, "sandbox", AT)).toEqual([third, secondAsRetired, firstAsRetired])
      expect(third.retiresAt).toBeNull()
      // Read with other merchants' and environments' sets: each names its own, in the same order.
      const other = yield* makeMerchant()
      const othersSet = yield* repo.rotate(credentialsFor(other.id, "production"))
      const production = yield* repo.rotate(credentialsFor(merchant.id, "production"))
      const together = yield* repo.liveSetsOf([other.id, merchant.id], AT)
      expect(together.filter((set) => set.merchantId === merchant.id && set.environment === "sandbox")).toEqual([third, secondAsRetired, firstAsRetired])
      expect(together.filter((set) => set.merchantId === merchant.id && set.environment === "production")).toEqual([production])
      expect(together.filter((set) => set.merchantId === other.id)).toEqual([othersSet])
      expect(together).toHaveLength(5)
      expect(yield* repo.liveSetsOf([], AT)).toEqual([])

      // At its moment a replaced set is no longer valid, though not yet destroyed.
      expect(yield* repo.findByMerchantKey("sandbox", second.merchantKey, plusSeconds(AT, 30))).toEqual(Option.none())
      expect(yield* repo.liveSets(merchant.id, "sandbox", plusSeconds(AT, 30))).toEqual([third, firstAsRetired])

      // Destroying what retired by then leaves the other; ending the overlap destroys the rest.
      expect(yield* repo.destroyRetired(plusSeconds(AT, 30))).toBeGreaterThanOrEqual(1)
      expect(yield* repo.liveSets(merchant.id, "sandbox", AT)).toEqual([third, firstAsRetired])
      expect(yield* repo.endOverlap(merchant.id, "sandbox")).toBe(1)
      expect(yield* repo.findByMerchantKey("sandbox", first.merchantKey, AT)).toEqual(Option.none())
      expect(yield* repo.liveSets(merchant.id, "sandbox", AT)).toEqual([third])
      expect(yield* repo.endOverlap(merchant.id, "sandbox")).toBe(0)
    }))

  it.effect("currencies: replaced as a whole, listed sorted and distinct", () =>
    Effect.gen(function*() {
      const repo = yield* MerchantCurrencyRepository
      const merchant = yield* makeMerchant()
      expect(yield* repo.list(merchant.id)).toEqual([])
      yield* repo.replace(merchant.id, ["USD", "EUR", "USD", "BTC"])
      expect(yield* repo.list(merchant.id)).toEqual(["BTC", "EUR", "USD"])
      yield* repo.replace(merchant.id, ["JPY"])
      expect(yield* repo.list(merchant.id)).toEqual(["JPY"])
      yield* repo.replace(merchant.id, [])
      expect(yield* repo.list(merchant.id)).toEqual([])
    }))

  it.effect("gateways: round trip with config, unique code, update, merchant selection", () =>
    Effect.gen(function*() {
      const repo = yield* GatewayRepository
      const method = unique("card")
      const gateway = yield* repo.create({
        plugin: "sandbox",
        name: "Card",
        method,
        currency: "USD",
        type: "automatic",
        active: true,
        config: { mode: "simulate", nested: { flag: true, list: [1, "two"] } }
      })
      expect(gateway.code).toBe(`${method}-usd`)
      expect(yield* repo.findById(gateway.id)).toEqual(Option.some(gateway))
      const clash = yield* Effect.flip(repo.create({ ...gateway, name: "Copy" }))
      expect(clash).toMatchObject({ _tag: "GatewayCodeTaken", code: gateway.code })

      const updated = Option.getOrThrow(yield* repo.update(gateway.id, { active: false, type: "manual", name: "Card 2" }))
      expect([updated.active, updated.type, updated.name, updated.config]).toEqual([false, "manual", "Card 2", gateway.config])
      const euro = yield* repo.create({ ...gateway, currency: "EUR", config: {} })
      expect((yield* repo.listByIds([euro.id, gateway.id])).map((g) => g.id)).toEqual([gateway.id, euro.id])
      expect((yield* repo.list).some((g) => g.id === euro.id)).toBe(true)

      const merchant = yield* makeMerchant()
      expect(yield* repo.merchantSelection(merchant.id)).toEqual([])
      yield* repo.replaceMerchantSelection(merchant.id, [euro.id, gateway.id, euro.id])
      expect(yield* repo.merchantSelection(merchant.id)).toEqual([gateway.id, euro.id])
      yield* repo.replaceMerchantSelection(merchant.id, [])
      expect(yield* repo.merchantSelection(merchant.id)).toEqual([])
    }))

  it.effect("settings: set, overwrite, read all", () =>
    Effect.gen(function*() {
      const repo = yield* SettingsRepository
      const key = unique("setting")
      expect(yield* repo.get(key)).toEqual(Option.none())
      yield* repo.set(key, JSON.stringify({ site_name: "A" }))
      yield* repo.set(key, JSON.stringify({ site_name: "B" }))
      expect(yield* repo.get(key)).toEqual(Option.some('{"site_name":"B"}'))
      expect((yield* repo.getAll).get(key)).toBe('{"site_name":"B"}')
    }))
}

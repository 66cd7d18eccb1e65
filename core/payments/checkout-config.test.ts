import { describe, expect, it } from "@effect/vitest"
import { Effect, Layer, TestClock } from "effect"
import { MerchantCurrencyRepository } from "../merchants/currency-repository.js"
import { MerchantId } from "../shared/ids.js"
import { WalletRepository } from "../wallets/wallet-repository.js"
import * as CheckoutConfig from "./checkout-config.js"
import { GatewayRepository } from "../gateways/gateway-repository.js"

/** Repositories that count their reads and answer from a value the test changes. */
const counting = () => {
  const reads = { currencies: 0, wallets: 0, selection: 0, gateways: 0 }
  let currencies: ReadonlyArray<string> = ["USD"]
  const stores = Layer.mergeAll(
    Layer.succeed(MerchantCurrencyRepository, { list: () => Effect.sync(() => (reads.currencies++, currencies)) } as never),
    Layer.succeed(WalletRepository, { listByMerchant: () => Effect.sync(() => (reads.wallets++, [])) } as never),
    Layer.succeed(GatewayRepository, {
      merchantSelection: () => Effect.sync(() => (reads.selection++, [])),
      list: Effect.sync(() => (reads.gateways++, []))
    } as never)
  )
  return { reads, stores, setCurrencies: (codes: ReadonlyArray<string>) => void (currencies = codes) }
}

describe("checkout configuration cache", () => {
  it.effect("reads a merchant's configuration once per time to live; invalidate makes the next read fresh", () => {
    const { reads, stores, setCurrencies } = counting()
    return Effect.gen(function*() {
      const cache = yield* CheckoutConfig.CheckoutConfigCache
      const merchant = MerchantId(7)
      expect((yield* cache.forMerchant(merchant)).currencies).toEqual(["USD"])
      yield* cache.forMerchant(merchant)
      yield* cache.gateways
      yield* cache.gateways
      expect(reads).toEqual({ currencies: 1, wallets: 1, selection: 1, gateways: 1 })

      // Another host's change shows once the time to live has passed.
      setCurrencies(["USD", "EUR"])
      yield* TestClock.adjust("4 seconds")
      expect((yield* cache.forMerchant(merchant)).currencies).toEqual(["USD"])
      yield* TestClock.adjust("1 second")
      expect((yield* cache.forMerchant(merchant)).currencies).toEqual(["USD", "EUR"])

      // This host's own change applies at once.
      setCurrencies(["EUR"])
      yield* CheckoutConfig.changesCheckoutConfig(Effect.void)
      expect((yield* cache.forMerchant(merchant)).currencies).toEqual(["EUR"])
      yield* cache.gateways
      expect(reads).toEqual({ currencies: 3, wallets: 3, selection: 3, gateways: 2 })
    }).pipe(Effect.provide(CheckoutConfig.layer({ ttlSeconds: 5 }).pipe(Layer.provide(stores))))
  })
})

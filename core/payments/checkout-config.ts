import * as Clock from "effect/Clock"
import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MerchantCurrencyRepository } from "../merchants/currency-repository.js"
import { ExpiringMap } from "../shared/expiring-map.js"
import type { GatewayId, MerchantId } from "../shared/ids.js"
import type { StorageError } from "../shared/storage-error.js"
import type { Wallet } from "../wallets/wallet.js"
import { WalletRepository } from "../wallets/wallet-repository.js"
import type { Gateway } from "../gateways/gateway.js"
import { GatewayRepository } from "../gateways/gateway-repository.js"

/** What initiate-payment reads of a merchant's configuration before it writes anything. */
export interface MerchantCheckoutConfig {
  readonly currencies: ReadonlyArray<string>
  /** Its wallets, for which exist and are active: balances here are not current and never used. */
  readonly wallets: ReadonlyArray<Wallet>
  readonly selection: ReadonlyArray<GatewayId>
}

/**
 * The configuration every payment session is checked against (enabled currencies, wallets, gateway
 * selection, gateways) changes only by an administrator, yet was read from the store on every
 * initiate: four statements before its one write. Kept for a few seconds, like the credential
 * cache: a change made on this host applies at once (the admin use cases invalidate), one made on
 * another host within the time to live.
 */
export class CheckoutConfigCache extends Context.Tag("merchant-payments/CheckoutConfigCache")<CheckoutConfigCache, {
  readonly forMerchant: (merchantId: MerchantId) => Effect.Effect<MerchantCheckoutConfig, StorageError>
  readonly gateways: Effect.Effect<ReadonlyArray<Gateway>, StorageError>
  readonly invalidate: Effect.Effect<void>
}>() {}

const ALL_GATEWAYS = "gateways"

export const layer = (options: { readonly ttlSeconds?: number; readonly capacity?: number } = {}) =>
  Layer.effect(
    CheckoutConfigCache,
    Effect.gen(function*() {
      const currencies = yield* MerchantCurrencyRepository
      const wallets = yield* WalletRepository
      const gatewayRepository = yield* GatewayRepository
      const ttl = options.ttlSeconds ?? 5
      const merchants = new ExpiringMap<MerchantId, MerchantCheckoutConfig>(ttl, options.capacity ?? 10_000)
      const gateways = new ExpiringMap<string, ReadonlyArray<Gateway>>(ttl, 1)
      const seconds = Effect.map(Clock.currentTimeMillis, (millis) => Math.floor(millis / 1000))

      const cached = <K, V>(map: ExpiringMap<K, V>, key: K, load: Effect.Effect<V, StorageError>) =>
        Effect.flatMap(seconds, (now) => {
          const hit = map.get(key, now)
          return hit !== undefined ? Effect.succeed(hit) : Effect.tap(load, (value) => Effect.sync(() => map.set(key, value, now)))
        })

      return CheckoutConfigCache.of({
        forMerchant: (merchantId) =>
          cached(merchants, merchantId, Effect.all({
            currencies: currencies.list(merchantId),
            wallets: wallets.listByMerchant(merchantId),
            selection: gatewayRepository.merchantSelection(merchantId)
          })),
        gateways: cached(gateways, ALL_GATEWAYS, gatewayRepository.list),
        invalidate: Effect.sync(() => {
          merchants.clear()
          gateways.clear()
        })
      })
    })
  )

/** For the admin use cases that change what the cache holds: once they succeed, it is read afresh. */
export const changesCheckoutConfig = <A, E, R>(self: Effect.Effect<A, E, R>) =>
  Effect.tap(self, () => Effect.flatMap(CheckoutConfigCache, (cache) => cache.invalidate))

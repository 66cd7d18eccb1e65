import * as Effect from "effect/Effect"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { WalletRepository } from "./wallet-repository.js"

/**
 * The caller's wallets in the environment of its credentials, by currency: a sandbox key never
 * sees production money, nor the other way round.
 */
export const merchantBalances = (caller: MerchantScope) =>
  Effect.map(
    Effect.flatMap(WalletRepository, (wallets) => wallets.listByMerchant(caller.merchant.id)),
    (wallets) =>
      wallets
        .filter((wallet) => wallet.environment === caller.environment)
        .sort((a, b) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : 0))
  )

import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { Environment } from "../shared/environment.js"
import { requireMerchant } from "../merchants/merchant-admin.js"
import { CurrencyCatalog, exponentOfHeld } from "../money/currency-catalog.js"
import { type AmountInput, parseSignedAmount } from "../money/parse.js"
import type { MerchantId, WalletId } from "../shared/ids.js"
import { ValidationFailed } from "../shared/validation.js"
import { WalletNotFound } from "./wallet.js"
import { WalletRepository } from "./wallet-repository.js"
import { changesCheckoutConfig } from "../payments/checkout-config.js"

export const createWallet = (merchantId: MerchantId, currency: string, environment: Environment) =>
  Effect.gen(function*() {
    yield* requireMerchant(merchantId)
    if (!(yield* CurrencyCatalog).isKnown(currency)) {
      return yield* ValidationFailed.field("currencyCode", `Unsupported currency code: ${currency}.`, "INVALID_CURRENCY")
    }
    return yield* (yield* WalletRepository).create({ merchantId, currency, environment })
  }).pipe(changesCheckoutConfig)

export const listWallets = (merchantId: MerchantId) =>
  Effect.gen(function*() {
    yield* requireMerchant(merchantId)
    return yield* (yield* WalletRepository).listByMerchant(merchantId)
  })

export const setWalletActive = (walletId: WalletId, active: boolean) =>
  Effect.flatMap(WalletRepository, (repository) => repository.setActive(walletId, active)).pipe(
    Effect.flatMap(Option.match({
      onNone: () => Effect.fail(new WalletNotFound({ walletId })),
      onSome: Effect.succeed
    })),
    changesCheckoutConfig
  )

/**
 * A manual correction by an administrator: a signed amount in the wallet's currency, written to the
 * ledger like any other change. A debit that would take the balance below zero is refused.
 */
export const adjustWallet = (walletId: WalletId, amount: AmountInput, reason: string) =>
  Effect.gen(function*() {
    const repository = yield* WalletRepository
    const wallet = yield* repository.findById(walletId)
    if (Option.isNone(wallet)) return yield* new WalletNotFound({ walletId })
    const exponent = yield* exponentOfHeld(wallet.value.currency)
    const parsed = parseSignedAmount(amount, exponent)
    if (Either.isLeft(parsed)) return yield* ValidationFailed.field("amount", parsed.left.message, "INVALID_AMOUNT")
    if (parsed.right === 0n) return yield* ValidationFailed.field("amount", "The amount must not be zero.", "INVALID_AMOUNT")
    const entry = yield* repository.post({ walletId, kind: "adjustment", delta: parsed.right, reference: "admin", memo: reason })
    return { entry, currency: wallet.value.currency }
  })

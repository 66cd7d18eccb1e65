import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { Amount } from "../money/amount.js"
import { exponentOfHeld } from "../money/currency-catalog.js"
import { type AmountInput, parseAmount } from "../money/parse.js"
import { now } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { ValidationFailed } from "../shared/validation.js"
import { Ids } from "../signing/random-ids.js"
import { WalletRepository } from "../wallets/wallet-repository.js"
import { publishAccountEvent } from "../webhooks/account-events.js"
import { lockedAvailability } from "../balances/wallet-availability.js"
import { countPayout } from "./payout-metrics.js"
import { type Payout, PayoutExceedsBalance } from "./payout.js"
import { PayoutDestinationRepository } from "./payout-destination-repository.js"
import { PayoutRepository } from "./payout-repository.js"

export interface PayoutRequest {
  readonly amount: AmountInput
  readonly currency: string
  readonly destinationId: string
}

/**
 * Asks for a payout to one of the caller's destinations (in its environment, not deleted, in the
 * destination's currency). The amount leaves the wallet at once, into the merchant's payouts in
 * transit: the debit, its journal entry and the payout row are one transaction. What is available
 * (the balance less what is still pending) is read under the wallet's row lock and the debit follows
 * under it, so concurrent payouts on any host can never together take more than is available; the
 * wallet row's own check (wallets.balance >= 0) stays behind it.
 */
export const requestPayout = (scope: MerchantScope, request: PayoutRequest) =>
  Effect.flatMap(Transactor, ({ withTransaction }) =>
    withTransaction(Effect.gen(function*() {
      const found = yield* (yield* PayoutDestinationRepository).find(scope.merchant.id, scope.environment, request.destinationId)
      if (Option.isNone(found)) {
        return yield* ValidationFailed.field("destinationId", "The destination_id must be one of the merchant's payout destinations in this environment.")
      }
      const destination = found.value
      if (destination.currency !== request.currency) {
        return yield* ValidationFailed.field("currency", `The currency must be the destination's: ${destination.currency}.`, "INVALID_CURRENCY")
      }
      const exponent = yield* exponentOfHeld(destination.currency)
      const parsed = parseAmount(request.amount, exponent, { allowZero: false })
      if (Either.isLeft(parsed)) return yield* ValidationFailed.field("amount", parsed.left.message, "INVALID_AMOUNT")
      const amount = parsed.right
      const refused = (available: Amount) => new PayoutExceedsBalance({ amount: available, currency: destination.currency, exponent })

      const wallets = yield* WalletRepository
      const wallet = yield* wallets.find(scope.merchant.id, destination.currency, scope.environment)
      // No wallet in the currency holds nothing.
      if (Option.isNone(wallet)) return yield* refused(Amount(0n))
      // The wallet locked, then what of it is available (balance less pending): no other debit or credit moves it before ours.
      const { available } = yield* lockedAvailability(wallet.value)
      if (amount > available) return yield* refused(available)
      const id = `po_${(yield* (yield* Ids).uuid).replaceAll("-", "")}`
      yield* wallets.post({ walletId: wallet.value.id, kind: "payout_debit", delta: Amount(-amount), reference: id }).pipe(
        Effect.catchTags({
          // The balance as it is now (re-read after the refused debit): what the merchant can ask for.
          InsufficientBalance: () =>
            Effect.flatMap(wallets.findById(wallet.value.id), (current) =>
              Effect.fail(refused(Option.match(current, { onNone: () => wallet.value.balance, onSome: (each) => each.balance })))),
          BalanceOverflow: (error) => Effect.die(error),
          WalletNotFound: (error) => Effect.die(error)
        })
      )
      const at = yield* now
      const payout: Payout = {
        id,
        merchantId: scope.merchant.id,
        environment: scope.environment,
        currency: destination.currency,
        amount,
        destinationId: destination.id,
        status: "pending",
        reason: null,
        reference: null,
        rail: null,
        approvedAt: null,
        createdAt: at,
        updatedAt: at
      }
      yield* (yield* PayoutRepository).insert(payout)
      yield* publishAccountEvent({ merchantId: payout.merchantId, environment: payout.environment, type: "payout.created", objectId: id, data: { kind: "payout", payout } })
      return payout
    })).pipe(Effect.tap(countPayout)))

import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import { MerchantRepository } from "../merchants/merchant-repository.js"
import { exponentOfHeld } from "../money/currency-catalog.js"
import { toExactCurrencyString } from "../money/format.js"
import { PayoutDestinationRepository } from "../payouts/payout-destination-repository.js"
import { requestPayout } from "../payouts/request-payout.js"
import type { Instant } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { WalletRepository } from "../wallets/wallet-repository.js"
import type { Wallet } from "../wallets/wallet.js"
import { BalanceRepository } from "./balance-repository.js"
import { periodStart } from "./payout-periods.js"
import { type PayoutSchedule, type PayoutSettings } from "./payout-settings.js"
import { PayoutSettingsRepository } from "./payout-settings-repository.js"
import { lockedAvailability } from "./wallet-availability.js"

const SCHEDULES = ["daily", "weekly", "monthly"] as const satisfies ReadonlyArray<PayoutSchedule>

/** The period already has its payout (another host, or an earlier tick, made it): this one is rolled back. */
class PeriodTaken extends Schema.TaggedError<PeriodTaken>()("PeriodTaken", {}) {}

/**
 * One wallet's automatic payout for the period holding `at`, in one transaction: the wallet locked,
 * the whole available amount (when at least the minimum) asked for through requestPayout, to the
 * newest destination in the wallet's currency, and the period claimed under the store's unique key,
 * which rolls the payout back when the period already had one. true when a payout was made.
 */
const payOutWallet = (wallet: Wallet, settings: PayoutSettings, schedule: Exclude<PayoutSchedule, "manual">, at: Instant) =>
  Effect.gen(function*() {
    const period = { merchantId: wallet.merchantId, environment: wallet.environment, currency: wallet.currency, period: periodStart(schedule, at) }
    const balances = yield* BalanceRepository
    if (yield* balances.periodTaken(period)) return false
    const merchant = Option.getOrThrow(yield* (yield* MerchantRepository).findById(wallet.merchantId))
    const destinations = yield* (yield* PayoutDestinationRepository).list(wallet.merchantId, wallet.environment)
    const destination = destinations.filter((each) => each.currency === wallet.currency).at(-1)
    if (destination === undefined) return false
    const { withTransaction } = yield* Transactor
    return yield* withTransaction(Effect.gen(function*() {
      const { available } = yield* lockedAvailability(wallet)
      if (available <= 0n || available < settings.payoutMinimum) return false
      const exponent = yield* exponentOfHeld(wallet.currency)
      const payout = yield* requestPayout({ merchant, environment: wallet.environment }, {
        amount: { kind: "string", value: toExactCurrencyString(available, exponent) },
        currency: wallet.currency,
        destinationId: destination.id
      })
      if (!(yield* balances.claimPeriod(period, payout.id, at))) {
        return yield* new PeriodTaken()
      }
      return true
    })).pipe(Effect.catchTag("PeriodTaken", () => Effect.succeed(false)))
  })

/**
 * Every approved merchant on a daily, weekly or monthly schedule gets, per wallet (currency and
 * environment), one payout of all that is available in each period. A wallet that fails is logged;
 * the others go on. How many payouts were made.
 */
export const runAutomaticPayouts = (at: Instant) =>
  Effect.gen(function*() {
    const settingsRepository = yield* PayoutSettingsRepository
    const wallets = yield* WalletRepository
    let made = 0
    for (const schedule of SCHEDULES) {
      for (const merchantId of yield* settingsRepository.approvedOnSchedule(schedule)) {
        const settings = yield* settingsRepository.get(merchantId)
        for (const wallet of yield* wallets.listByMerchant(merchantId)) {
          const paid = yield* payOutWallet(wallet, settings, schedule, at).pipe(
            Effect.catchAllCause((cause) =>
              Effect.as(Effect.logError("automatic payout could not be made", { wallet: wallet.id }, cause), false))
          )
          if (paid) made++
        }
      }
    }
    return made
  })

import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import { Ledger } from "../ledger/ledger.js"
import { movementLines } from "../ledger/movements.js"
import { now } from "../shared/instant.js"
import { Transactor } from "../shared/transactor.js"
import { WalletRepository } from "../wallets/wallet-repository.js"
import { publishAccountEvent } from "../webhooks/account-events.js"
import type { AccountEventType } from "../webhooks/event-types.js"
import { countPayout } from "./payout-metrics.js"
import { type Payout, type PayoutAction, type PayoutStatus, PayoutNotFound, payoutTransition, PayoutTransitionRefused } from "./payout.js"
import { PayoutRepository } from "./payout-repository.js"

/** What an operator gives with an action: the reason of a rejection or failure, the reference of a payment. */
export interface PayoutDetails {
  readonly reason?: string
  readonly reference?: string
  /** On approval: the rail that will carry the payout (payout-rail.ts). */
  readonly rail?: string | null
}

const DONE: Record<PayoutAction, string> = {
  approve: "approved",
  reject: "rejected",
  "mark-paid": "marked paid",
  "mark-failed": "marked failed"
}

/** The event each ending publishes: a rejection returns the funds as a failure does, so it is told as one (its status says which). */
const EVENT: Partial<Record<PayoutStatus, AccountEventType>> = { paid: "payout.paid", failed: "payout.failed", rejected: "payout.failed" }

const refusal = (payout: Payout, action: PayoutAction) =>
  new PayoutTransitionRefused({
    status: payout.status,
    action,
    message: `This payout is ${payout.status}; only ${payoutTransition(action).from === "approved" ? "an approved" : "a pending"} payout can be ${DONE[action]}.`
  })

/**
 * An operator's step: approve or reject a pending payout, mark an approved one paid or failed. A
 * rejected or failed payout's amount goes back to the wallet (its request reversed); a paid one
 * leaves the platform's books for the merchant's bank. The status change and its money are one
 * transaction, and the change is conditional on the status read, so two operators racing move the
 * money once.
 */
export const operatePayout = (id: string, action: PayoutAction, details: PayoutDetails = {}) =>
  Effect.flatMap(Transactor, ({ withTransaction }) =>
    withTransaction(Effect.gen(function*() {
      const payouts = yield* PayoutRepository
      const found = yield* payouts.findForUpdate(id)
      if (Option.isNone(found)) return yield* new PayoutNotFound()
      const payout = found.value
      const { from, to } = payoutTransition(action)
      if (payout.status !== from) return yield* refusal(payout, action)
      const changed = yield* payouts.transition(id, from, {
        status: to,
        reason: details.reason ?? payout.reason,
        reference: details.reference ?? payout.reference,
        at: yield* now,
        ...(action === "approve" ? { rail: details.rail ?? null } : {})
      })
      if (Option.isNone(changed)) {
        const current = Option.getOrElse(yield* payouts.findForUpdate(id), () => payout)
        return yield* refusal(current, action)
      }
      if (to === "rejected" || to === "failed") {
        const wallets = yield* WalletRepository
        const wallet = Option.getOrThrow(yield* wallets.find(payout.merchantId, payout.currency, payout.environment))
        yield* wallets.post({ walletId: wallet.id, kind: "payout_return", delta: payout.amount, reference: payout.id, memo: details.reason ?? null }).pipe(
          Effect.catchTags({
            BalanceOverflow: (error) => Effect.die(error),
            InsufficientBalance: (error) => Effect.die(error),
            WalletNotFound: (error) => Effect.die(error)
          })
        )
      }
      if (to === "paid") {
        yield* (yield* Ledger).record({
          kind: "payout_paid",
          environment: payout.environment,
          currency: payout.currency,
          reference: payout.id,
          lines: movementLines({ kind: "payout_paid", merchantId: payout.merchantId, amount: payout.amount })
        })
      }
      const event = EVENT[to]
      if (event !== undefined) {
        yield* publishAccountEvent({ merchantId: payout.merchantId, environment: payout.environment, type: event, objectId: id, data: { kind: "payout", payout: changed.value } })
      }
      return changed.value
    })).pipe(Effect.tap(countPayout)))

import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Option from "effect/Option"
import type { Amount } from "../money/amount.js"
import { exponentOfHeld } from "../money/currency-catalog.js"
import { toCurrencyString } from "../money/format.js"
import { parseAmount } from "../money/parse.js"
import { now } from "../shared/instant.js"
import { CheckoutAttempts } from "./checkout-attempts.js"
import { finishOrReread } from "./finish-payment.js"
import type { Gateway } from "../gateways/gateway.js"
import type { DecimalString, GatewayOutcome } from "../gateways/gateway-plugin.js"
import type { SavedMethodReport } from "../gateways/plugin-saved-methods.js"
import { SavedMethodKeeper } from "./saved-method-keeper.js"
import type { Payment } from "./payment.js"
import { type FlagReason, PaymentFlags } from "./payment-flags.js"
import { PaymentRepository } from "./payment-repository.js"

/** What a gateway said about a payment, from a return, a notification or a status sync, once verified. */
export interface GatewayWord {
  readonly trxId: string
  readonly outcome: GatewayOutcome
  readonly amount?: DecimalString
  readonly currency?: string
  readonly gatewayReference?: string
  /** A method the gateway saved with this payment (a subscription's checkout). */
  readonly savedMethod?: SavedMethodReport
}

export type ReportSource = "return" | "notification" | "sync"

/** What the core made of a gateway's word. */
export type Verdict =
  | { readonly _tag: "Settled"; readonly payment: Payment }
  | { readonly _tag: "StillPending"; readonly payment: Payment }
  /** The gateway declined this attempt; the payment stays open for another while its checkout is valid. */
  | { readonly _tag: "Declined"; readonly payment: Payment }
  | { readonly _tag: "Flagged"; readonly payment: Payment; readonly reason: FlagReason }
  | { readonly _tag: "Ignored"; readonly reason: string }

const verdict = (value: Verdict): Verdict => value

/** The payment's amount as it crosses the plugin boundary: exact, in its currency's own digits. */
export const amountText = (amount: Amount, currency: string) =>
  Effect.map(exponentOfHeld(currency), (exponent) => toCurrencyString(amount, exponent))

/** The reported amount and currency against the payment's own: a mismatch is never completed. */
const mismatchOf = (payment: Payment, word: GatewayWord) =>
  Effect.gen(function*() {
    if (word.currency !== undefined && word.currency !== payment.currency) {
      return { reason: "currency_mismatch" as const, detail: `The gateway reported ${word.currency}; the payment is in ${payment.currency}.` }
    }
    if (word.amount === undefined) return undefined
    const exponent = yield* exponentOfHeld(payment.currency)
    const reported = parseAmount({ kind: "string", value: word.amount }, exponent)
    if (Either.isRight(reported) && reported.right === payment.amount) return undefined
    const expected = yield* amountText(payment.amount, payment.currency)
    return { reason: "amount_mismatch" as const, detail: `The gateway reported ${word.amount} ${payment.currency}; the payment is for ${expected}.` }
  })

const flag = (payment: Payment, gateway: Gateway, reason: FlagReason, detail: string, source: ReportSource) =>
  Effect.gen(function*() {
    yield* (yield* PaymentFlags).raise({ trxId: payment.trxId, gatewayId: gateway.id, reason, detail, createdAt: yield* now })
    yield* Effect.logWarning(`payment flagged: ${detail}`).pipe(Effect.annotateLogs({ trx_id: payment.trxId, gateway: gateway.code, source, reason }))
  })

/**
 * The one place a gateway's verified word moves a payment. The plugin describes; the core decides:
 * only a gateway that began the payment's checkout is heard, an amount or currency that differs is
 * flagged and never completed, and the outcome goes through the one completion path, which ends a
 * payment once however many times and in whatever order returns, notifications and syncs arrive.
 */
export const acceptReport = (gateway: Gateway, word: GatewayWord, source: ReportSource) =>
  Effect.gen(function*() {
    const found = yield* (yield* PaymentRepository).findByTrxId(word.trxId)
    if (Option.isNone(found)) return verdict({ _tag: "Ignored", reason: "no such payment" })
    const attempts = yield* CheckoutAttempts
    if (Option.isNone(yield* attempts.find(word.trxId, gateway.id))) {
      yield* Effect.logWarning("gateway report ignored: this gateway did not begin the payment's checkout").pipe(
        Effect.annotateLogs({ trx_id: word.trxId, gateway: gateway.code, source }))
      return verdict({ _tag: "Ignored", reason: "not begun with this gateway" })
    }
    const payment = found.value
    if (word.gatewayReference !== undefined) yield* attempts.setReference(payment.trxId, gateway.id, word.gatewayReference)
    const mismatch = yield* mismatchOf(payment, word)
    if (mismatch !== undefined) {
      yield* flag(payment, gateway, mismatch.reason, mismatch.detail, source)
      return verdict({ _tag: "Flagged", payment, reason: mismatch.reason })
    }
    if (word.outcome === "pending") return verdict({ _tag: "StillPending", payment })
    // A decline ends an attempt, not the payment: the customer may try again or another method, as
    // on any hosted checkout, so nothing is told to the merchant yet. Only once the checkout can no
    // longer be paid (its link expired) is a decline the payment's end.
    const at = yield* now
    if (word.outcome === "declined" && payment.status === "pending" && payment.expiresAt > at) {
      yield* attempts.recordDecline(payment.trxId, gateway.id, at)
      yield* Effect.logInfo("checkout attempt declined; the payment stays open for another try").pipe(
        Effect.annotateLogs({ trx_id: payment.trxId, gateway: gateway.code, source }))
      return verdict({ _tag: "Declined", payment })
    }
    const ended = yield* finishOrReread(payment.trxId, { outcome: word.outcome, gatewayId: gateway.id })
    yield* attempts.stopSyncs(payment.trxId)
    // Paid at the gateway after the payment ended here (expired, or another gateway's outcome):
    // money may have moved with no payment to show for it. Someone must look.
    if (word.outcome === "paid" && !(ended.status === "success" && ended.gatewayId === gateway.id)) {
      yield* flag(ended, gateway, "reported_after_end", `The gateway reported it paid after it had ended as ${ended.failureReason ?? ended.status}.`, source)
      return verdict({ _tag: "Flagged", payment: ended, reason: "reported_after_end" })
    }
    // Kept once the payment is paid by this gateway; a second report of it saves it again harmlessly
    // only if the first was lost: the keeper skips an invoice whose subscription already has it.
    if (word.outcome === "paid" && word.savedMethod !== undefined && ended.invoiceId !== null) {
      yield* (yield* SavedMethodKeeper).keep(ended, gateway.id, word.savedMethod)
    }
    return verdict({ _tag: "Settled", payment: ended })
  })

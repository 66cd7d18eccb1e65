import * as Effect from "effect/Effect"
import type { Amount } from "../../../core/money/amount.js"
import { heldExponent } from "../../../core/money/currencies.js"
import { CurrencyCatalog } from "../../../core/money/currency-catalog.js"
import { toCurrencyString } from "../../../core/money/format.js"
import { outcomeOf, type Payment } from "../../../core/payments/payment.js"
import { isFullyRefunded } from "../../../core/refunds/refund-math.js"
import { type Instant, toIsoString } from "../../../core/shared/instant.js"
import { formatAmount } from "../checkout/amount-format.js"
import { html, type Html } from "../pages/html.js"

/** Writes an amount of a currency, exactly: the currency's own minor digits, grouped, then its code. */
export type MoneyText = (amount: Amount, currency: string) => string

/** The formatter of the kit's currency catalogue (checkout's, in English): `1,234.50 USD`. */
export const moneyText = Effect.map(CurrencyCatalog, (catalog): MoneyText => (amount, currency) => {
  const exponent = heldExponent(catalog, currency)
  return formatAmount(toCurrencyString(amount, exponent), currency, exponent, "en")
})

/** A moment in UTC to the minute, machine-readable in its `datetime`: a page cannot know the reader's zone without script. */
export const timeText = (instant: Instant): Html => {
  const iso = toIsoString(instant)
  return html`<time datetime="${iso}">${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC</time>`
}

/** A status as a small coloured label; the colour only repeats what the word says. */
export const statusLabel = (status: string): Html =>
  html`<span class="status ${status.replace(/[^a-z_]/g, "")}">${status.replace(/_/g, " ")}</span>`

/** What happened to a payment, in a merchant's words: how it ended, then how much of it went back. */
export type PaymentState = "pending" | "success" | "partly_refunded" | "refunded" | "declined" | "cancelled" | "expired"

/** The one place a payment's fields become its state: lists and detail both show this badge. */
export const paymentState = (payment: Payment): PaymentState => {
  const outcome = outcomeOf(payment)
  if (outcome === undefined) return "pending"
  if (outcome !== "paid") return outcome
  if (payment.refundedAmount === 0n) return "success"
  return isFullyRefunded(payment.amount, payment.refundedAmount) ? "refunded" : "partly_refunded"
}

/** A payment's state as a badge: colour and word together. */
export const paymentBadge = (payment: Payment): Html => statusLabel(paymentState(payment))

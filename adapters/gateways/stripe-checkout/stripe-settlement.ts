import type Stripe from "stripe"
import type { SettlementReportLine } from "../../../core/gateways/settlement-report.js"
import { fromStripeMinor } from "./stripe-amounts.js"

/** A Checkout Session lives at most 24 hours: one paid in the period was created at most a day before it. */
const SESSION_LIFETIME_SECONDS = 24 * 60 * 60

/** Stripe's signed integer amount as a signed exact decimal in its currency's digits. */
const signedDecimal = (minor: number, currency: string): string =>
  minor < 0 ? `-${fromStripeMinor(-minor, currency)}` : fromStripeMinor(minor, currency)

const idOf = (value: string | { readonly id: string } | null | undefined): string | undefined =>
  typeof value === "string" ? value : value?.id

/** The balance transaction's kind of money, as the settlement CSV names it; null: none the kit reconciles. */
const typeOf = (transaction: Stripe.BalanceTransaction): SettlementReportLine["type"] | null => {
  switch (transaction.reporting_category) {
    case "charge":
      return "payment"
    case "refund":
    case "partial_capture_reversal":
      return "refund"
    case "dispute":
    case "dispute_reversal":
      return "dispute"
    case "payout":
    case "payout_reversal":
    case "transfer":
    case "transfer_reversal":
      return "payout"
    case "fee":
    case "tax":
      return "fee"
    default:
      return null
  }
}

export interface SettlementPeriod {
  /** Unix seconds, inclusive. */
  readonly gte: number
  /** Unix seconds, exclusive. */
  readonly lt: number
}

/**
 * The balance transactions of a period (every page, stripe-node's auto-pagination) as settlement
 * lines. The kit knows a payment by its Checkout Session, and a balance transaction names the charge,
 * so the period's sessions (listed first, from a day before it) map each PaymentIntent to its
 * session; a charge of no listed session keeps the charge's id, and is then missing in the kit. A
 * refund is known by its own id, as `refund` reported it; a dispute by Stripe's dispute id (its amount
 * withdrawn, then reinstated when won), a Connect transfer by its tr_ id (what sendPayout reported), and
 * Stripe's payouts to the platform's own bank by their po_ id. Stripe's fee on a transaction is a `fee`
 * line of the same reference; categories the kit has no use for (currency conversions, top-ups) are left out.
 */
export const settlementLines = async (client: Stripe, period: SettlementPeriod, options: Stripe.RequestOptions): Promise<Array<SettlementReportLine>> => {
  const sessionOf = new Map<string, string>()
  for await (const session of client.checkout.sessions.list({ created: { gte: period.gte - SESSION_LIFETIME_SECONDS, lt: period.lt }, limit: 100 }, options)) {
    const paymentIntent = idOf(session.payment_intent)
    if (paymentIntent !== undefined) sessionOf.set(paymentIntent, session.id)
  }
  const lines: Array<SettlementReportLine> = []
  const listed = client.balanceTransactions.list({ created: { gte: period.gte, lt: period.lt }, limit: 100, expand: ["data.source"] }, options)
  for await (const transaction of listed) {
    const type = typeOf(transaction)
    if (type === null) continue
    const currency = transaction.currency.toUpperCase()
    const settledAt = new Date(transaction.created * 1000).toISOString()
    const source = transaction.source
    const sourceId = idOf(source as string | { readonly id: string } | null) ?? transaction.id
    const reference = type === "payment" && typeof source === "object" && source !== null && "payment_intent" in source
      ? sessionOf.get(idOf((source as Stripe.Charge).payment_intent) ?? "") ?? sourceId
      : sourceId
    lines.push({ gatewayReference: reference, type, amount: signedDecimal(transaction.amount, currency), currency, settledAt })
    if (type !== "fee" && transaction.fee !== 0) {
      lines.push({ gatewayReference: reference, type: "fee", amount: signedDecimal(-transaction.fee, currency), currency, settledAt })
    }
  }
  return lines
}

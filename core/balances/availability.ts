import { Amount } from "../money/amount.js"

/** A wallet's balance split into what may leave now and what is still pending. */
export interface Availability {
  readonly available: Amount
  readonly pending: Amount
}

/**
 * The pending part is the recent payments' net, capped by the balance (refunds and payouts may
 * already have taken it): available = balance − pending, never below zero, and the two add up to
 * the balance whenever it is not negative.
 */
export const splitBalance = (balance: Amount, recentNet: Amount): Availability => {
  const positive = balance > 0n ? balance : 0n
  const pending = recentNet <= 0n ? 0n : recentNet > positive ? positive : recentNet
  return { available: Amount(positive - pending), pending: Amount(pending) }
}

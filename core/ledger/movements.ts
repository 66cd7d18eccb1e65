import { Amount } from "../money/amount.js"
import type { MerchantId } from "../shared/ids.js"
import type { LedgerPosting } from "../wallets/wallet.js"
import {
  GATEWAY_CLEARING,
  OPENING_BALANCES,
  PLATFORM_ADJUSTMENTS,
  PLATFORM_FEES,
  PLATFORM_PAYOUTS_PAID,
  disputeHoldAccount,
  payoutsInTransitAccount,
  reserveHoldAccount,
  walletAccount
} from "./account.js"
import type { JournalLine } from "./journal.js"

/**
 * A movement of money, as the use cases know it. Its journal lines (movementLines) are the one place
 * that says which accounts each movement touches and with which sign.
 */
export type Movement =
  /** The gateway owes the gross; the platform keeps the fee; the merchant is owed the rest (even nothing). */
  | { readonly kind: "payment_completed"; readonly merchantId: MerchantId; readonly gross: Amount; readonly fee: Amount }
  /** The merchant's wallet pays the customer back through the gateway; the fee is not returned. */
  | { readonly kind: "refund"; readonly merchantId: MerchantId; readonly amount: Amount }
  /** An operator's correction: positive credits the wallet, negative debits it. */
  | { readonly kind: "adjustment"; readonly merchantId: MerchantId; readonly delta: Amount }
  /** What a wallet held when the ledger began. */
  | { readonly kind: "opening"; readonly merchantId: MerchantId; readonly balance: Amount }
  /** A payout asked for: the amount leaves the wallet for the merchant's payouts in transit. */
  | { readonly kind: "payout_requested"; readonly merchantId: MerchantId; readonly amount: Amount }
  /** A payout left the platform's bank: no longer in transit, no longer the platform's. */
  | { readonly kind: "payout_paid"; readonly merchantId: MerchantId; readonly amount: Amount }
  /** A payout failed or was rejected: its request undone, the amount back in the wallet. */
  | { readonly kind: "payout_returned"; readonly merchantId: MerchantId; readonly amount: Amount }
  /** Part of a payment's net held back as a rolling reserve: out of the wallet into the merchant's reserve hold. */
  | { readonly kind: "reserve_held"; readonly merchantId: MerchantId; readonly amount: Amount }
  /** A reserve hold's time is up: back from the reserve hold into the wallet. */
  | { readonly kind: "reserve_released"; readonly merchantId: MerchantId; readonly amount: Amount }
  /**
   * A dispute opened: the disputed amount leaves the wallet for the merchant's dispute hold, and the
   * merchant's dispute fee leaves it for the gateway, which charges it (clearing: it owes us less).
   */
  | { readonly kind: "dispute_opened"; readonly merchantId: MerchantId; readonly amount: Amount; readonly fee: Amount }
  /** A dispute won: the hold goes back to the wallet; the fee stays spent. */
  | { readonly kind: "dispute_won"; readonly merchantId: MerchantId; readonly amount: Amount }
  /** A dispute lost: the gateway keeps the money it took back, so the hold goes to clearing. */
  | { readonly kind: "dispute_lost"; readonly merchantId: MerchantId; readonly amount: Amount }

const line = (account: string, amount: bigint): JournalLine => ({ account, amount: Amount(amount) })

/** The balanced lines of a movement (debit positive, credit negative), lines of zero left out. */
export const movementLines = (movement: Movement): ReadonlyArray<JournalLine> => {
  const wallet = walletAccount(movement.merchantId)
  let lines: ReadonlyArray<JournalLine>
  switch (movement.kind) {
    case "payment_completed":
      lines = [
        line(GATEWAY_CLEARING, movement.gross),
        line(PLATFORM_FEES, -movement.fee),
        line(wallet, -(movement.gross - movement.fee))
      ]
      break
    case "refund":
      lines = [line(wallet, movement.amount), line(GATEWAY_CLEARING, -movement.amount)]
      break
    case "adjustment":
      lines = [line(wallet, -movement.delta), line(PLATFORM_ADJUSTMENTS, movement.delta)]
      break
    case "opening":
      lines = [line(wallet, -movement.balance), line(OPENING_BALANCES, movement.balance)]
      break
    case "payout_requested":
      lines = [line(wallet, movement.amount), line(payoutsInTransitAccount(movement.merchantId), -movement.amount)]
      break
    case "payout_paid":
      lines = [line(payoutsInTransitAccount(movement.merchantId), movement.amount), line(PLATFORM_PAYOUTS_PAID, -movement.amount)]
      break
    case "payout_returned":
      lines = [line(wallet, -movement.amount), line(payoutsInTransitAccount(movement.merchantId), movement.amount)]
      break
    case "reserve_held":
      lines = [line(wallet, movement.amount), line(reserveHoldAccount(movement.merchantId), -movement.amount)]
      break
    case "reserve_released":
      lines = [line(wallet, -movement.amount), line(reserveHoldAccount(movement.merchantId), movement.amount)]
      break
    case "dispute_opened":
      lines = [
        line(wallet, movement.amount + movement.fee),
        line(disputeHoldAccount(movement.merchantId), -movement.amount),
        line(GATEWAY_CLEARING, -movement.fee)
      ]
      break
    case "dispute_won":
      lines = [line(disputeHoldAccount(movement.merchantId), movement.amount), line(wallet, -movement.amount)]
      break
    case "dispute_lost":
      lines = [line(disputeHoldAccount(movement.merchantId), movement.amount), line(GATEWAY_CLEARING, -movement.amount)]
      break
  }
  return lines.filter((each) => each.amount !== 0n)
}

/** How much a movement changes its merchant's wallet balance: minus what it books to the wallet's account. */
export const walletDelta = (movement: Movement): Amount => {
  const wallet = walletAccount(movement.merchantId)
  return Amount(-movementLines(movement).reduce((sum, each) => each.account === wallet ? sum + each.amount : sum, 0n))
}

/** The movement a wallet posting records, its wallet being the merchant's. */
export const movementOfPosting = (posting: LedgerPosting, merchantId: MerchantId): Movement => {
  switch (posting.kind) {
    case "payment_credit":
      return { kind: "payment_completed", merchantId, gross: Amount(posting.delta + posting.fee), fee: posting.fee }
    case "refund_debit":
      return { kind: "refund", merchantId, amount: Amount(-posting.delta) }
    case "adjustment":
      return { kind: "adjustment", merchantId, delta: posting.delta }
    case "payout_debit":
      return { kind: "payout_requested", merchantId, amount: Amount(-posting.delta) }
    case "payout_return":
      return { kind: "payout_returned", merchantId, amount: posting.delta }
    case "reserve_hold":
      return { kind: "reserve_held", merchantId, amount: Amount(-posting.delta) }
    case "reserve_release":
      return { kind: "reserve_released", merchantId, amount: posting.delta }
    case "dispute_debit":
      return { kind: "dispute_opened", merchantId, amount: Amount(-posting.delta - posting.fee), fee: posting.fee }
    case "dispute_return":
      return { kind: "dispute_won", merchantId, amount: posting.delta }
  }
}

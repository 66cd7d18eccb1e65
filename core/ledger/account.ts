import type { MerchantId } from "../shared/ids.js"

/**
 * A ledger account's stable name within one book (one environment and one currency): stored with
 * every journal line and shown as is by the trial balance, so a name never changes once written.
 *
 * Signs (docs/decisions.md): a debit is positive, a credit negative. What the platform holds or is
 * owed (gateway clearing) is debit-normal, so positive; what it owes (merchant wallets) and what it
 * earned (fees) are credit-normal, so negative. Every book sums to zero.
 */
export type LedgerAccount = string

/** What the platform owes one merchant: minus the wallet's balance. */
export const walletAccount = (merchantId: MerchantId): LedgerAccount => `merchant:${merchantId}:wallet`

/** Money on its way to a merchant's bank: credited when a payout is requested, debited back when it is paid, failed or rejected. */
export const payoutsInTransitAccount = (merchantId: MerchantId): LedgerAccount => `merchant:${merchantId}:payouts-in-transit`
/**
 * Money held against a merchant's open disputes: credited with the disputed amount when a dispute
 * opens, debited when it closes (back to the wallet when won, to the gateway when lost).
 */
export const disputeHoldAccount = (merchantId: MerchantId): LedgerAccount => `merchant:${merchantId}:dispute-hold`
/** A rolling reserve: credited with the part of each payment's net held back, debited when it is released to the wallet. */
export const reserveHoldAccount = (merchantId: MerchantId): LedgerAccount => `merchant:${merchantId}:reserve-hold`

/** The platform's fee revenue: credited with each payment's fee. */
export const PLATFORM_FEES: LedgerAccount = "platform:fees"
/** What the gateways owe the platform: debited with each payment's gross, credited with each refund. */
export const GATEWAY_CLEARING: LedgerAccount = "gateway:clearing"
/** The other side of an operator's manual correction of a wallet. */
export const PLATFORM_ADJUSTMENTS: LedgerAccount = "platform:adjustments"
/**
 * What left the platform's bank for merchants' bank accounts: credited with each payout paid, so its
 * balance is minus everything paid out (an asset account, the bank, given away).
 */
export const PLATFORM_PAYOUTS_PAID: LedgerAccount = "platform:payouts-paid"
/** The other side of the balances wallets held when the ledger began (migration 0015). */
export const OPENING_BALANCES: LedgerAccount = "platform:opening-balances"

const WALLET = /^merchant:\d+:wallet$/

/** A wallet's account moves only with its wallet's balance (WalletRepository.post), never alone. */
export const isWalletAccount = (account: LedgerAccount): boolean => WALLET.test(account)

import type { WalletBalance } from "../../../core/balances/balance-sheet.js"
import { toIsoString } from "../../../core/shared/instant.js"
import { jsonAmount } from "../contract/json-codec.js"

/** One wallet's balance as GET /api/v1/balances answers it, and as `balance.available` carries it. */
export const balanceJson = ({ wallet, ...split }: WalletBalance) => ({
  currency_code: wallet.currency,
  environment: wallet.environment,
  balance: jsonAmount(wallet.balance),
  active: wallet.active,
  available: jsonAmount(split.available),
  pending: jsonAmount(split.pending),
  reserved: jsonAmount(split.reserved),
  in_payouts: jsonAmount(split.inPayouts),
  next_available_at: split.nextAvailableAt === null ? null : toIsoString(split.nextAvailableAt)
})

/** The plugin API's part in payouts: what a rail is handed, and how it answers. */
import type { Environment } from "../shared/environment.js"
import type { CallTrace, DecimalString, GatewayRef } from "./gateway-plugin.js"

/** Where a payout goes, as a rail sees it: the IBAN unsealed (a rail is trusted code, as every plugin is). */
export type PayoutDestinationAtRail =
  | { readonly type: "bank_account"; readonly accountHolder: string; readonly iban: string; readonly bic: string | null }
  | { readonly type: "stripe_account"; readonly accountId: string }

/** An approved payout handed to its rail. */
export interface PayoutContext<Config> extends CallTrace {
  readonly payoutId: string
  readonly merchantId: number
  readonly amount: DecimalString
  readonly currency: string
  readonly environment: Environment
  readonly destination: PayoutDestinationAtRail
  /** The payout's id: the same on every try, so the rail never pays one payout twice. */
  readonly idempotencyKey: string
  /** The config of the plugin's gateway record that serves the payout's currency (docs/plugins.md). */
  readonly config: Config
  readonly gateway: GatewayRef
}

/**
 * How the rail took the payout: `paid` (the money left, `reference` names the transfer), `failed`
 * (it will not leave: `reason`, and the funds go back to the wallet), or `pending` (settled later,
 * by the operator or by a notification or sync).
 */
export interface PayoutReport {
  readonly status: "paid" | "pending" | "failed"
  readonly reference?: string
  readonly reason?: string
}

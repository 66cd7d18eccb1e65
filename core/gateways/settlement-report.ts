import type { Environment } from "../shared/environment.js"
import type { CallTrace, DecimalString, GatewayRef } from "./gateway-plugin.js"

/** What `settlementReport` is asked: one gateway record's settlement over [from, to). */
export interface SettlementContext<Config> extends CallTrace {
  readonly environment: Environment
  readonly gateway: GatewayRef
  readonly config: Config
  /** ISO 8601 instants, UTC: the period's first moment and the moment after its last. */
  readonly from: string
  readonly to: string
}

/**
 * One line of the gateway's settlement, as the kit's settlement CSV spells it (docs/admin-api.md,
 * reconciliation): the reference the plugin reported to the kit for the payment or refund (what
 * `beginCheckout` or `refund` gave), the signed amount from the platform's side (a payment positive,
 * a refund, dispute, fee or payout negative) and when the gateway settled it.
 */
export interface SettlementReportLine {
  readonly gatewayReference: string
  readonly type: "payment" | "refund" | "dispute" | "fee" | "payout"
  readonly amount: DecimalString
  readonly currency: string
  readonly settledAt: string
}

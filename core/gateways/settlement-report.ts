import type { Environment } from "../shared/environment.js"

/**
 * What `settlementReport` is asked: one gateway record's settlement over [from, to). Spelled out
 * here rather than from gateway-plugin.ts's CallTrace and GatewayRef, which import this file.
 */
export interface SettlementContext<Config> {
  /** The W3C trace context of the kit's span for this call, when the host traces. */
  readonly traceparent?: string
  readonly environment: Environment
  readonly gateway: { readonly id: number; readonly code: string; readonly name: string }
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
  /** A signed exact decimal in the currency's own digits: "-12.50". */
  readonly amount: string
  readonly currency: string
  readonly settledAt: string
}

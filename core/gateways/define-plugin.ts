import * as Either from "effect/Either"
import type { GatewayPluginDefinition } from "./gateway-plugin.js"
export type { DisputeEvidence, DisputeEvidenceReport, DisputeReport } from "./plugin-disputes.js"
export type { SavedMethodCharge, SavedMethodChargeReport, SavedMethodReport, SaveMethodRequest } from "./plugin-saved-methods.js"
import { checkPluginShape } from "./plugin-shape.js"

export {
  type CheckoutContext,
  type CheckoutStart,
  type DisputeEvidenceContext,
  GATEWAY_PLUGIN_API_VERSION,
  GatewayConfigRejected,
  GatewayFailure,
  type GatewayOutcome,
  type GatewayPluginDefinition,
  type GatewayRef,
  type GatewayReply,
  GatewayReturnRejected,
  type GatewayRefundStatus,
  type NotificationContext,
  type NotificationReport,
  type PluginAnswer,
  type PaymentAtGateway,
  type PayoutContext,
  type PayoutDestinationAtRail,
  type PayoutReport,
  type PluginCapabilities,
  type RefundContext,
  type RefundReport,
  type ReturnContext,
  type ReturnReport,
  type SavedMethodChargeContext,
  type SyncContext,
  type SyncReport
} from "./gateway-plugin.js"

/**
 * Types for a plugin object, and the kit's checks at the moment the module is loaded: a plugin that
 * would be refused at start throws here, in the author's own test run, with the same words.
 * Optional: the kit takes the plain object just the same.
 */
export const definePlugin = <Config>(plugin: GatewayPluginDefinition<Config>): GatewayPluginDefinition<Config> => {
  const checked = checkPluginShape(plugin)
  if (Either.isLeft(checked)) throw new TypeError(`Gateway plugin ${JSON.stringify(plugin.id)} cannot be loaded: ${checked.left}.`)
  return plugin
}

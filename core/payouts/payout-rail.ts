import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import {
  GatewayPlugins,
  type GatewayRef,
  type HostedPlugin,
  type PayoutContext,
  type PayoutReport,
  type PluginCallFailed
} from "../gateways/gateway-plugin.js"
import type { PayoutDestinationType } from "./payout-destination.js"

/**
 * What carries approved payouts of some destination types out of the platform: the built-in manual
 * rail (the operator sends a file, then marks each payout paid), or a gateway plugin with the
 * `payouts` capability (the Stripe plugin's Connect transfers).
 */
export interface PayoutRail {
  readonly id: string
  readonly destinationTypes: ReadonlyArray<string>
  /** A plugin's rail calls carry the config of one of its gateway records; the manual rail needs none. */
  readonly needsGatewayRecord: boolean
  readonly send: (context: PayoutContext<unknown>) => Effect.Effect<PayoutReport, PluginCallFailed>
}

export const MANUAL_RAIL_ID = "manual"

/** The gateway a manual payout names: none, the operator's bank. */
export const MANUAL_RAIL_GATEWAY: GatewayRef = { id: 0, code: MANUAL_RAIL_ID, name: "Manual" }

/**
 * Bank transfers the operator makes: handing a payout over sends nothing, it waits, approved, for the
 * day's file (GET /admin/v1/payouts/export) and the operator's mark-paid or mark-failed.
 */
export const manualRail: PayoutRail = {
  id: MANUAL_RAIL_ID,
  destinationTypes: ["bank_account"],
  needsGatewayRecord: false,
  send: () => Effect.succeed({ status: "pending" })
}

/** A plugin with the `payouts` capability as a rail. */
export const pluginRail = (plugin: HostedPlugin): PayoutRail => ({
  id: plugin.id,
  destinationTypes: plugin.payoutDestinationTypes,
  needsGatewayRecord: true,
  send: plugin.sendPayout
})

/**
 * The rail for a destination type: the first registered plugin that pays to it, else the built-in
 * manual rail for a bank account; none for a type nothing pays to (the payout then waits for the operator).
 */
export const railFor = (type: PayoutDestinationType) =>
  Effect.map(GatewayPlugins, (plugins): Option.Option<PayoutRail> => {
    const plugin = plugins.list.find((each) => each.capabilities.payouts && each.payoutDestinationTypes.includes(type))
    if (plugin !== undefined) return Option.some(pluginRail(plugin))
    return manualRail.destinationTypes.includes(type) ? Option.some(manualRail) : Option.none()
  })

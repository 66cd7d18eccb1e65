import * as Either from "effect/Either"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import type { GatewayPluginDefinition } from "../../core/gateways/gateway-plugin.js"
import type { StoreConfig } from "../../hosts/kit-layer.js"
import { capabilitiesOf, checkPluginShape } from "../../core/gateways/plugin-shape.js"
import type { GatewayDriver } from "./driver.js"
import { goldenCases } from "./golden-cases.js"
import { type KitUnderTest, startKit } from "./kit-harness.js"
import { controlledPlugin, type PluginControls } from "./plugin-controls.js"
import { refundCases } from "./refund-cases.js"
import { disputeEvidenceCases } from "./dispute-evidence-cases.js"
import { savedMethodCases } from "./saved-method-cases.js"

export type { CheckoutAtGateway, CustomerAction, GatewayDriver, GatewayNotification } from "./driver.js"
export { deliver, type DeliveryPlan } from "./notification-delivery.js"
export { payoutRailConformance, type PayoutRailDriver } from "./payout-rail-cases.js"

export interface GatewayConformanceOptions {
  /** How to play the plugin's gateway and its customer. */
  readonly driver: GatewayDriver
  /** Starts what the driver needs (a fake gateway) before the kit is built; `driver.config` is read after it. */
  readonly setup?: () => void | Promise<void>
  /** Stops whatever `setup` started. */
  readonly teardown?: () => void | Promise<void>
  /** The kit's plugin call timeout during the run (default 1 s, so the hang case is quick). */
  readonly callTimeoutMillis?: number
  /** The kit's store, read when the suite starts (default: a throw-away SQLite file). */
  readonly store?: () => StoreConfig
  /** Added to the suite's name, to tell runs apart (the store, say). */
  readonly label?: string
}

/**
 * The contract every gateway plugin must meet, proven against a whole kit hosting it:
 * `gatewayPluginConformance(myPlugin, { driver: () => myDriver })` inside a vitest file. Above all,
 * nothing the plugin did not verify for this very payment may ever complete it, and whatever the
 * order and number of returns and notifications, a payment completes exactly once.
 */
export const gatewayPluginConformance = (plugin: GatewayPluginDefinition, options: GatewayConformanceOptions): void => {
  describe(`gateway plugin conformance: ${plugin.id}${options.label === undefined ? "" : ` (${options.label})`}`, () => {
    it("is a well-formed plugin for this kit's API version", () => {
      const shape = checkPluginShape(plugin)
      expect(Either.isRight(shape) ? "ok" : shape.left).toBe("ok")
    })

    let kit: KitUnderTest | undefined
    let controls: PluginControls | undefined
    beforeAll(async () => {
      await options.setup?.()
      const controlled = controlledPlugin(plugin)
      controls = controlled.controls
      kit = await startKit(controlled.plugin, options.driver, {
        callTimeoutMillis: options.callTimeoutMillis ?? 1_000,
        ...(options.store !== undefined ? { store: options.store() } : {})
      })
    }, 60_000)
    afterAll(async () => {
      await kit?.close()
      await options.teardown?.()
    })

    const context = { kit: () => kit!, controls: () => controls!, driver: options.driver }
    const capabilities = capabilitiesOf(plugin)
    goldenCases(context, capabilities)
    refundCases(context, capabilities)
    disputeEvidenceCases(context, capabilities)
    savedMethodCases(plugin, options.driver, capabilities)
  })
}

import type { GatewayPluginDefinition, PluginCall } from "../../core/gateways/gateway-plugin.js"

type Method = Exclude<PluginCall, "parseConfig">
const METHODS: ReadonlyArray<Method> = ["beginCheckout", "handleReturn", "handleNotification", "syncStatus", "refund", "submitDisputeEvidence"]

/** What the harness did to a plugin, and what the plugin was asked. */
export interface PluginControls {
  /** Calls that never answer while listed here: the kit's timeout must cut them off. */
  readonly hang: Set<Method>
  /** Calls that throw once each time they are listed (removed when used). */
  readonly failOnce: Set<Method>
  readonly calls: Array<{ readonly call: Method; readonly context: unknown }>
}

/**
 * The plugin under test with the harness in front of it: every call recorded, and any call made to
 * hang or fail on demand. The plugin itself is untouched; its methods keep their own `this`.
 */
export const controlledPlugin = (plugin: GatewayPluginDefinition): { readonly plugin: GatewayPluginDefinition; readonly controls: PluginControls } => {
  const controls: PluginControls = { hang: new Set(), failOnce: new Set(), calls: [] }
  const wrapped: Record<string, unknown> = { ...plugin, parseConfig: (raw: unknown) => plugin.parseConfig(raw) }
  for (const method of METHODS) {
    const original = plugin[method] as ((context: unknown) => unknown) | undefined
    if (original === undefined) continue
    wrapped[method] = (context: unknown) => {
      controls.calls.push({ call: method, context })
      if (controls.hang.has(method)) return new Promise(() => undefined)
      if (controls.failOnce.delete(method)) return Promise.reject(new Error(`${method} failed (injected by the conformance harness)`))
      return original.call(plugin, context)
    }
  }
  return { plugin: wrapped as unknown as GatewayPluginDefinition, controls }
}

import { hmacSha256 } from "../../../core/signing/hmac.js"
import type { GatewayPluginDefinition } from "../../../core/gateways/gateway-plugin.js"
import { makeSandboxPlugin, type SandboxConfig } from "./sandbox-plugin.js"

export { makeSandboxPlugin, SANDBOX_PLUGIN_ID, SandboxConfig, type SandboxPluginOptions } from "./sandbox-plugin.js"

/** Domain separation: this key signs sandbox outcomes and nothing else derived from the master key. */
export const SANDBOX_SECRET_LABEL = "merchant-payments/gateways/sandbox/v1"

/**
 * The simulator keyed from the host's master key, so no extra secret has to be configured and every
 * host sharing the master key verifies the others' forms.
 */
export const sandboxPlugin = (masterKey: Uint8Array, previousMasterKey?: Uint8Array): GatewayPluginDefinition<SandboxConfig> =>
  makeSandboxPlugin({
    secret: hmacSha256(masterKey, SANDBOX_SECRET_LABEL),
    // A sandbox form rendered before a master key rotation still posts back while MASTER_KEY_PREVIOUS is set.
    ...(previousMasterKey !== undefined ? { previousSecret: hmacSha256(previousMasterKey, SANDBOX_SECRET_LABEL) } : {})
  })

import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { SecretBox } from "../signing/secret-box.js"
import { actsOutsideTheDatabase } from "../shared/transaction-run.js"
import { ValidationFailed } from "../shared/validation.js"
import type { Gateway } from "./gateway.js"
import { type GatewayConfigRejected, GatewayPlugins, type GatewayRef, type HostedPlugin, PluginCallFailed } from "./gateway-plugin.js"

type ConfigDocument = Readonly<Record<string, unknown>>

/**
 * A gateway record's config as stored: the fields the plugin names in `secretConfigKeys` sealed
 * under the master key (their JSON, so a secret need not be a string), everything else as sent.
 * A copy of the database alone reveals no gateway secret.
 */
export const sealConfig = (plugin: HostedPlugin, config: ConfigDocument) =>
  Effect.map(SecretBox, (box): ConfigDocument =>
    Object.fromEntries(Object.entries(config).map(([key, value]) =>
      plugin.secretConfigKeys.includes(key) ? [key, box.seal(JSON.stringify(value))] : [key, value])))

/** The config as the plugin wrote it: sealed fields opened. A value that will not open is a defect of setup. */
export const openConfig = (plugin: HostedPlugin, stored: ConfigDocument) =>
  Effect.flatMap(SecretBox, (box) =>
    Effect.try({
      try: (): ConfigDocument =>
        Object.fromEntries(Object.entries(stored).map(([key, value]) => {
          if (!plugin.secretConfigKeys.includes(key) || typeof value !== "string") return [key, value]
          return [key, JSON.parse(Either.getOrThrowWith(box.open(value), (error) => error))]
        })),
      catch: () =>
        new PluginCallFailed({
          plugin: plugin.id,
          call: "parseConfig",
          reason: "failed",
          message: "a sealed config field could not be opened: is MASTER_KEY the one it was sealed with?"
        })
    }))

/**
 * Checks a config the administrator sent with the plugin's own parseConfig; its message is the
 * answer (422). What is stored is what was sent, sealed: the plugin parses it again on each use.
 */
export const validateConfig = (plugin: HostedPlugin, config: ConfigDocument) =>
  plugin.parseConfig(config).pipe(
    Effect.as(config),
    Effect.catchTags({
      GatewayConfigRejected: (rejected) => ValidationFailed.field("config", rejected.message),
      PluginCallFailed: (failed) => ValidationFailed.field("config", `The ${plugin.id} plugin could not check the config: ${failed.message}`)
    })
  )

/** A new config for an existing record: secret fields left out keep their sealed value (the admin API never shows them). */
export const mergeSecrets = (plugin: HostedPlugin, stored: ConfigDocument, sent: ConfigDocument): ConfigDocument => {
  const kept = plugin.secretConfigKeys.filter((key) => !(key in sent) && key in stored)
  return { ...sent, ...Object.fromEntries(kept.map((key) => [key, stored[key]])) }
}

/** What a plugin call about one gateway record needs: the plugin and its parsed config. */
export const gatewayCallee = (gateway: Gateway) =>
  Effect.gen(function*() {
    // Every call to a gateway starts here: a transaction that reaches it must not be run again.
    yield* actsOutsideTheDatabase
    const plugin = yield* (yield* GatewayPlugins).get(gateway.plugin)
    const opened = yield* openConfig(plugin, gateway.config)
    const config = yield* plugin.parseConfig(opened).pipe(
      Effect.catchTag("GatewayConfigRejected", (rejected: GatewayConfigRejected) =>
        Effect.fail(new PluginCallFailed({ plugin: plugin.id, call: "parseConfig", reason: "failed", message: `the stored config is refused: ${rejected.message}` })))
    )
    const ref: GatewayRef = { id: gateway.id, code: gateway.code, name: gateway.name }
    return { plugin, config, ref }
  })

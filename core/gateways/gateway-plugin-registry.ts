import type * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import * as Layer from "effect/Layer"
import * as Schema from "effect/Schema"
import { type GatewayPluginDefinition, GatewayPlugins, type HostedPlugin, UnknownGatewayPlugin } from "./gateway-plugin.js"
import { type HostingOptions, hostPlugin } from "./plugin-hosting.js"
import { checkPluginShape } from "./plugin-shape.js"

export { PLUGIN_ID_PATTERN } from "./plugin-shape.js"

/**
 * A plugin this kit cannot host. Raised while the host starts, so a mismatch stops the process with
 * a message naming the plugin instead of surfacing later as a broken checkout.
 */
export class IncompatibleGatewayPlugin extends Schema.TaggedError<IncompatibleGatewayPlugin>()("IncompatibleGatewayPlugin", {
  plugin: Schema.String,
  message: Schema.String
}) {}

/** Where a plugin came from, for the one line that refuses it: a module specifier, or its id. */
export interface PluginEntry {
  readonly plugin: unknown
  readonly source?: string
}

const nameOf = (entry: PluginEntry): string => {
  const id = (entry.plugin as { readonly id?: unknown } | null)?.id
  const named = typeof id === "string" ? `Gateway plugin ${JSON.stringify(id)}` : "A gateway plugin"
  return entry.source === undefined ? named : `${named} from ${entry.source}`
}

/**
 * The registry over the plugins a host registers, in registration order. The first problem fails
 * the whole set: starting with some plugins silently missing would strand their gateway records.
 */
export const makeGatewayPlugins = (
  entries: ReadonlyArray<PluginEntry | GatewayPluginDefinition>,
  options: HostingOptions = {}
): Either.Either<Context.Tag.Service<typeof GatewayPlugins>, IncompatibleGatewayPlugin> => {
  const byId = new Map<string, { readonly hosted: HostedPlugin; readonly from: string }>()
  for (const given of entries) {
    const entry: PluginEntry = "plugin" in given && !("apiVersion" in given) ? given : { plugin: given }
    const checked = checkPluginShape(entry.plugin)
    const id = String((entry.plugin as { readonly id?: unknown } | null)?.id ?? "")
    if (Either.isLeft(checked)) {
      return Either.left(new IncompatibleGatewayPlugin({ plugin: id, message: `${nameOf(entry)} cannot be loaded: ${checked.left}.` }))
    }
    const earlier = byId.get(checked.right.id)
    if (earlier !== undefined) {
      return Either.left(new IncompatibleGatewayPlugin({
        plugin: id,
        message: `${nameOf(entry)} cannot be loaded: its id is already registered by ${earlier.from}.`
      }))
    }
    byId.set(checked.right.id, { hosted: hostPlugin(checked.right, options), from: entry.source ?? `version ${checked.right.version}` })
  }
  const list = [...byId.values()].map((entry) => entry.hosted)
  return Either.right(GatewayPlugins.of({
    list,
    get: (id) => {
      const found = byId.get(id)
      return found === undefined ? Effect.fail(new UnknownGatewayPlugin({ plugin: id })) : Effect.succeed(found.hosted)
    }
  }))
}

/** Provides GatewayPlugins, or fails to build with IncompatibleGatewayPlugin so the host refuses to start. */
export const layer = (
  entries: ReadonlyArray<PluginEntry | GatewayPluginDefinition>,
  options: HostingOptions = {}
): Layer.Layer<GatewayPlugins, IncompatibleGatewayPlugin> =>
  Layer.effect(GatewayPlugins, Either.match(makeGatewayPlugins(entries, options), { onLeft: Effect.fail, onRight: Effect.succeed }))

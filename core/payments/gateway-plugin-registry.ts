import { type Context, Effect, Either, Layer, Schema } from "effect"
import { GATEWAY_PLUGIN_API_VERSION, type GatewayPlugin, GatewayPlugins, UnknownGatewayPlugin } from "./gateway-plugin.js"

/**
 * A plugin this kit cannot host. Raised while the host starts, so a mismatch stops the process with
 * a message naming the plugin instead of surfacing later as a broken checkout.
 */
export class IncompatibleGatewayPlugin extends Schema.TaggedError<IncompatibleGatewayPlugin>()("IncompatibleGatewayPlugin", {
  plugin: Schema.String,
  message: Schema.String
}) {}

/** Gateway records store the id and URLs may carry it: keep it short, lower case and URL-safe. */
export const PLUGIN_ID_PATTERN = /^[a-z][a-z0-9-]{1,31}$/

const named = (plugin: GatewayPlugin) => `Gateway plugin ${JSON.stringify(plugin.id)} ${plugin.version}`

const problemWith = (plugin: GatewayPlugin, seen: ReadonlyMap<string, GatewayPlugin>): IncompatibleGatewayPlugin | undefined => {
  if (plugin.apiVersion !== GATEWAY_PLUGIN_API_VERSION) {
    return new IncompatibleGatewayPlugin({
      plugin: plugin.id,
      message: `${named(plugin)} was written for gateway plugin API version ${plugin.apiVersion}, ` +
        `but this kit speaks version ${GATEWAY_PLUGIN_API_VERSION}.`
    })
  }
  if (!PLUGIN_ID_PATTERN.test(plugin.id)) {
    return new IncompatibleGatewayPlugin({
      plugin: plugin.id,
      message: `${named(plugin)} has an invalid id: use 2 to 32 lower-case letters, digits or hyphens, starting with a letter.`
    })
  }
  const earlier = seen.get(plugin.id)
  if (earlier !== undefined) {
    return new IncompatibleGatewayPlugin({
      plugin: plugin.id,
      message: `Gateway plugin id ${JSON.stringify(plugin.id)} is registered twice (versions ${earlier.version} and ${plugin.version}).`
    })
  }
  return undefined
}

/**
 * The registry over the plugins a host registers, in registration order. The first problem fails
 * the whole set: starting with some plugins silently missing would strand their gateway records.
 */
export const makeGatewayPlugins = (
  plugins: ReadonlyArray<GatewayPlugin>
): Either.Either<Context.Tag.Service<typeof GatewayPlugins>, IncompatibleGatewayPlugin> => {
  const byId = new Map<string, GatewayPlugin>()
  for (const plugin of plugins) {
    const problem = problemWith(plugin, byId)
    if (problem !== undefined) return Either.left(problem)
    byId.set(plugin.id, plugin)
  }
  const list = [...byId.values()]
  return Either.right(GatewayPlugins.of({
    list,
    get: (id) => {
      const plugin = byId.get(id)
      return plugin === undefined ? Effect.fail(new UnknownGatewayPlugin({ plugin: id })) : Effect.succeed(plugin)
    }
  }))
}

/** Provides GatewayPlugins, or fails to build with IncompatibleGatewayPlugin so the host refuses to start. */
export const layer = (plugins: ReadonlyArray<GatewayPlugin>): Layer.Layer<GatewayPlugins, IncompatibleGatewayPlugin> =>
  Layer.effect(GatewayPlugins, Either.match(makeGatewayPlugins(plugins), { onLeft: Effect.fail, onRight: Effect.succeed }))

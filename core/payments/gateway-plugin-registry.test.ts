import { Effect, Either, Exit, Layer, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { GATEWAY_PLUGIN_API_VERSION, type GatewayPlugin, GatewayPlugins } from "./gateway-plugin.js"
import { IncompatibleGatewayPlugin, layer, makeGatewayPlugins } from "./gateway-plugin-registry.js"

const plugin = (id: string, overrides: Partial<GatewayPlugin> = {}): GatewayPlugin => ({
  id,
  displayName: id,
  version: "1.0.0",
  apiVersion: GATEWAY_PLUGIN_API_VERSION,
  configSchema: Schema.Struct({}),
  currencies: "any",
  environments: ["sandbox", "production"],
  beginCheckout: () => Effect.succeed({ _tag: "Redirect", url: "https://gateway.example/pay" }),
  handleReturn: () => Effect.succeed("pending" as const),
  ...overrides
})

const problem = (plugins: ReadonlyArray<GatewayPlugin>) => Either.flip(makeGatewayPlugins(plugins)).pipe(Either.getOrThrow)

describe("gateway plugin registry", () => {
  it("finds registered plugins by id and lists them in registration order", async () => {
    const registry = Either.getOrThrow(makeGatewayPlugins([plugin("zeta"), plugin("alpha-2")]))
    expect(registry.list.map((p) => p.id)).toEqual(["zeta", "alpha-2"])
    expect((await Effect.runPromise(registry.get("alpha-2"))).id).toBe("alpha-2")
    const missing = await Effect.runPromise(Effect.flip(registry.get("nope")))
    expect(missing).toMatchObject({ _tag: "UnknownGatewayPlugin", plugin: "nope" })
  })

  it("accepts no plugins at all: a host may offer none", () => {
    expect(Either.getOrThrow(makeGatewayPlugins([])).list).toEqual([])
  })

  it("refuses a plugin written for another API version, naming the plugin and both versions", () => {
    const error = problem([plugin("acme", { apiVersion: GATEWAY_PLUGIN_API_VERSION + 1, version: "2.3.4" })])
    expect(error).toBeInstanceOf(IncompatibleGatewayPlugin)
    expect(error.plugin).toBe("acme")
    expect(error.message).toBe(
      `Gateway plugin "acme" 2.3.4 was written for gateway plugin API version ${GATEWAY_PLUGIN_API_VERSION + 1}, ` +
        `but this kit speaks version ${GATEWAY_PLUGIN_API_VERSION}.`
    )
  })

  it("refuses ids that are not 2-32 lower-case letters, digits or hyphens starting with a letter", () => {
    for (const id of ["", "a", "Acme", "1acme", "-acme", "acme_pay", "acme pay", "a".repeat(33), "acmé"]) {
      const error = problem([plugin(id)])
      expect(error.plugin).toBe(id)
      expect(error.message).toContain(`Gateway plugin ${JSON.stringify(id)} 1.0.0 has an invalid id`)
    }
    for (const id of ["ab", "acme-pay", "x9", "a".repeat(32)]) expect(Either.isRight(makeGatewayPlugins([plugin(id)]))).toBe(true)
  })

  it("refuses two plugins with one id, naming both versions", () => {
    const error = problem([plugin("acme", { version: "1.0.0" }), plugin("other"), plugin("acme", { version: "1.1.0" })])
    expect(error.plugin).toBe("acme")
    expect(error.message).toBe(`Gateway plugin id "acme" is registered twice (versions 1.0.0 and 1.1.0).`)
  })

  it("as a Layer, provides the registry or fails to build so the host refuses to start", async () => {
    const ids = await Effect.runPromise(Effect.provide(Effect.map(GatewayPlugins, (r) => r.list.map((p) => p.id)), layer([plugin("acme")])))
    expect(ids).toEqual(["acme"])
    const exit = await Effect.runPromiseExit(Layer.build(layer([plugin("acme"), plugin("acme")])).pipe(Effect.scoped))
    expect(Exit.isFailure(exit)).toBe(true)
    const failure = await Effect.runPromise(Effect.flip(Layer.build(layer([plugin("Bad")])).pipe(Effect.scoped)))
    expect(failure).toMatchObject({ _tag: "IncompatibleGatewayPlugin", plugin: "Bad" })
  })
})

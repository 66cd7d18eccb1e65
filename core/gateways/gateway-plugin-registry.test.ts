import { Effect, Either, Exit, Layer } from "effect"
import { describe, expect, it } from "vitest"
import { GATEWAY_PLUGIN_API_VERSION, type GatewayPluginDefinition, GatewayPlugins } from "./gateway-plugin.js"
import { IncompatibleGatewayPlugin, layer, makeGatewayPlugins, type PluginEntry } from "./gateway-plugin-registry.js"

const plugin = (id: string, overrides: Record<string, unknown> = {}): GatewayPluginDefinition => ({
  id,
  displayName: id,
  version: "1.0.0",
  apiVersion: GATEWAY_PLUGIN_API_VERSION,
  currencies: "any",
  environments: ["sandbox", "production"],
  parseConfig: (raw) => raw,
  beginCheckout: async () => ({ redirect: "https://gateway.example/pay" }),
  handleReturn: async () => ({ outcome: "pending", verified: true }),
  ...overrides
})

const problem = (entries: ReadonlyArray<PluginEntry | GatewayPluginDefinition>) =>
  Either.flip(makeGatewayPlugins(entries)).pipe(Either.getOrThrow)

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

  it("refuses a plugin written for another API version (v1 included), naming the plugin, its module and both versions", () => {
    for (const apiVersion of [1, GATEWAY_PLUGIN_API_VERSION + 1]) {
      const error = problem([{ plugin: plugin("acme", { apiVersion }), source: "./acme.mjs" }])
      expect(error).toBeInstanceOf(IncompatibleGatewayPlugin)
      expect(error.plugin).toBe("acme")
      expect(error.message).toBe(
        `Gateway plugin "acme" from ./acme.mjs cannot be loaded: it was written for gateway plugin API version ${apiVersion}, ` +
          `but this kit speaks version ${GATEWAY_PLUGIN_API_VERSION}.`
      )
    }
  })

  it("refuses ids that are not 2-32 lower-case letters, digits or hyphens starting with a letter", () => {
    for (const id of ["", "a", "Acme", "1acme", "-acme", "acme_pay", "acme pay", "a".repeat(33), "acmé"]) {
      const error = problem([plugin(id)])
      expect(error.plugin).toBe(id)
      expect(error.message).toContain("its id must be 2 to 32 lower-case letters")
    }
    for (const id of ["ab", "acme-pay", "x9", "a".repeat(32)]) expect(Either.isRight(makeGatewayPlugins([plugin(id)]))).toBe(true)
  })

  it("refuses a malformed plugin with every problem in one line", () => {
    const error = problem([{
      plugin: plugin("acme", {
        version: "one",
        currencies: ["usd"],
        environments: ["live"],
        capabilities: { notifications: true, refunds: "yes", teleport: true },
        beginCheckout: undefined
      }),
      source: "acme-pay"
    }])
    expect(error.message).toMatch(/^Gateway plugin "acme" from acme-pay cannot be loaded: /)
    for (const text of ["version must be a semver", "currencies must be", "environments must be", "capabilities.notifications is true but handleNotification is missing",
      "capabilities.refunds must be true or false", "capabilities.teleport is not a known capability", "beginCheckout must be a function"]) {
      expect(error.message).toContain(text)
    }
    expect(error.message).not.toContain("\n")
    expect(problem([{ plugin: "not a plugin", source: "./x.mjs" }]).message).toBe("A gateway plugin from ./x.mjs cannot be loaded: it is not a plugin object.")
  })

  it("refuses two plugins with one id, naming where the first came from", () => {
    const error = problem([{ plugin: plugin("acme"), source: "./a.mjs" }, plugin("other"), { plugin: plugin("acme"), source: "./b.mjs" }])
    expect(error.plugin).toBe("acme")
    expect(error.message).toBe(`Gateway plugin "acme" from ./b.mjs cannot be loaded: its id is already registered by ./a.mjs.`)
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

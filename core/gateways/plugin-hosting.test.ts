import { Effect, Logger, LogLevel } from "effect"
import { describe, expect, it } from "vitest"
import { GATEWAY_PLUGIN_API_VERSION, GatewayFailure, type GatewayPluginDefinition, GatewayReturnRejected, type ReturnContext } from "./gateway-plugin.js"
import { hostPlugin } from "./plugin-hosting.js"

const SECRET = "sk_test_do-not-log-me"

const base: GatewayPluginDefinition<{ readonly key: string }> = {
  id: "acme",
  displayName: "Acme",
  version: "1.0.0",
  apiVersion: GATEWAY_PLUGIN_API_VERSION,
  currencies: "any",
  environments: ["sandbox"],
  parseConfig: (raw) => raw as { readonly key: string },
  beginCheckout: async () => ({ redirect: "https://acme.example/pay" }),
  handleReturn: async () => ({ outcome: "paid", verified: true })
}

const returnContext: ReturnContext<unknown> = {
  trxId: "SANDBOX_1",
  amount: "12.50",
  currency: "USD",
  environment: "sandbox",
  gateway: { id: 1, code: "acme-usd", name: "Acme" },
  config: { key: SECRET },
  fields: {},
  gatewayReference: null
}

const checkout = {
  ...returnContext,
  displayAmount: "12.50",
  description: null,
  merchantName: "Shop",
  returnUrl: "https://kit.example/r",
  cancelUrl: "https://kit.example/c",
  notifyUrl: "https://kit.example/n"
}

/** Runs an effect and keeps every log line it wrote, with its annotations. */
const withLogs = async <A, E>(effect: Effect.Effect<A, E>) => {
  const lines: Array<string> = []
  const logger = Logger.make(({ annotations, message }) => lines.push(JSON.stringify({ message, annotations: Object.fromEntries(annotations) })))
  const exit = await Effect.runPromiseExit(effect.pipe(Effect.provide(Logger.replace(Logger.defaultLogger, logger)), Logger.withMinimumLogLevel(LogLevel.All)))
  return { exit, lines }
}

const failureOf = async <A, E>(effect: Effect.Effect<A, E>) => Effect.runPromise(Effect.flip(effect))

describe("plugin hosting", () => {
  it("takes Promise, plain and Effect answers alike", async () => {
    for (const handleReturn of [
      async () => ({ outcome: "paid" as const, verified: true }),
      () => ({ outcome: "paid" as const, verified: true }),
      () => Effect.succeed({ outcome: "paid" as const, verified: true })
    ]) {
      expect(await Effect.runPromise(hostPlugin({ ...base, handleReturn }).handleReturn(returnContext))).toEqual({ outcome: "paid", verified: true })
    }
  })

  it("turns a throw, a rejection, a failed Effect and a defect into PluginCallFailed", async () => {
    const cases: ReadonlyArray<readonly [GatewayPluginDefinition["beginCheckout"], string, string]> = [
      [() => { throw new Error("boom") }, "threw", "boom"],
      [async () => { throw new Error("rejected") }, "threw", "rejected"],
      [() => Effect.fail(new GatewayFailure({ message: "card network down", retryable: true })), "failed", "card network down"],
      [() => Effect.die(new Error("defect")), "threw", "defect"]
    ]
    for (const [beginCheckout, reason, message] of cases) {
      const failure = await failureOf(hostPlugin({ ...base, beginCheckout }).beginCheckout(checkout))
      expect(failure).toMatchObject({ _tag: "PluginCallFailed", plugin: "acme", call: "beginCheckout", reason, message })
    }
  })

  it("cuts off a call that hangs after the timeout, on real time", async () => {
    const hosted = hostPlugin({ ...base, beginCheckout: () => new Promise(() => undefined) }, { callTimeoutMillis: 50 })
    const started = Date.now()
    expect(await failureOf(hosted.beginCheckout(checkout))).toMatchObject({ reason: "timed_out" })
    expect(Date.now() - started).toBeLessThan(2_000)
  })

  it("refuses answers of the wrong shape", async () => {
    for (const answer of [undefined, {}, { redirect: "javascript:alert(1)" }, { redirect: "/relative" }, { html: "" }, { redirect: 5 }]) {
      const failure = await failureOf(hostPlugin({ ...base, beginCheckout: async () => answer as never }).beginCheckout(checkout))
      expect(failure).toMatchObject({ reason: "malformed" })
    }
    for (const answer of [{ outcome: "paid" }, { outcome: "success", verified: true }, { outcome: "paid", verified: "yes" }]) {
      expect(await failureOf(hostPlugin({ ...base, handleReturn: async () => answer as never }).handleReturn(returnContext))).toMatchObject({ reason: "malformed" })
    }
  })

  it("reads an Effect plugin's GatewayReturnRejected as an unverified report", async () => {
    const hosted = hostPlugin({ ...base, handleReturn: () => Effect.fail(new GatewayReturnRejected({ message: "bad signature" })) })
    expect(await Effect.runPromise(hosted.handleReturn(returnContext))).toEqual({ outcome: "pending", verified: false })
  })

  it("answers unsupported for a capability the plugin does not claim", async () => {
    const hosted = hostPlugin({ ...base, syncStatus: async () => ({ outcome: "paid" }) })
    expect(hosted.capabilities).toEqual({ notifications: false, statusSync: false, refunds: false, partialRefunds: false, payouts: false, disputeEvidence: false, savedMethods: false })
    const failure = await failureOf(hosted.syncStatus({ ...returnContext }))
    expect(failure).toMatchObject({ reason: "unsupported", call: "syncStatus" })
  })

  it("turns a parseConfig throw into the administrator's message", async () => {
    const hosted = hostPlugin({ ...base, parseConfig: () => { throw new Error("api_key is required") } })
    expect(await failureOf(hosted.parseConfig({}))).toMatchObject({ _tag: "GatewayConfigRejected", message: "api_key is required" })
  })

  it("logs each call with plugin, gateway, trx id, duration and outcome, and never the config", async () => {
    const ok = await withLogs(hostPlugin(base).handleReturn(returnContext))
    const failed = await withLogs(hostPlugin({ ...base, handleReturn: async () => { throw new Error("gateway said no") } }).handleReturn(returnContext))
    const [line] = ok.lines
    expect(JSON.parse(line!)).toMatchObject({ annotations: { plugin: "acme", call: "handleReturn", gateway: "1:acme-usd", trx_id: "SANDBOX_1", outcome: "paid" } })
    expect(JSON.parse(line!).annotations.duration_ms).toBeTypeOf("number")
    expect(JSON.parse(failed.lines[0]!)).toMatchObject({ annotations: { outcome: "threw" } })
    for (const text of [...ok.lines, ...failed.lines]) expect(text).not.toContain(SECRET)
  })
})

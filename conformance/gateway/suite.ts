import { Effect, Either, ParseResult, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Amount } from "../../core/money/amount.js"
import { GATEWAY_PLUGIN_API_VERSION, type CheckoutAction, type CheckoutRequest, type GatewayOutcome, type GatewayPlugin } from "../../core/payments/gateway-plugin.js"
import { makeGatewayPlugins, PLUGIN_ID_PATTERN } from "../../core/payments/gateway-plugin-registry.js"
import { formsIn, pressButton } from "./html-forms.js"
import { otherCurrency, returnFor, sampleRequest } from "./sample-payment.js"

export type SampleOutcome = "paid" | "declined" | "cancelled"

export interface GatewayConformanceSample {
  /** Changes to the sample checkout request: a currency the plugin serves, a gateway config it needs. */
  readonly request?: Partial<Omit<CheckoutRequest, "trxId">>
  /**
   * The fields the gateway would send back for an outcome, for plugins whose action the suite cannot
   * complete by itself (a redirect, or a form without `data-testid` pay / decline / cancel buttons).
   */
  readonly makeReturnFields?: (request: CheckoutRequest, action: CheckoutAction, outcome: SampleOutcome) => Readonly<Record<string, string>>
}

const TEST_IDS: Readonly<Record<SampleOutcome, string>> = { paid: "pay", declined: "decline", cancelled: "cancel" }
const SEMVER = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?(?:\+[0-9A-Za-z.-]+)?$/
const CURRENCY = /^[A-Z][A-Z0-9]{2,9}$/

/**
 * The contract every gateway plugin must meet: `gatewayPluginConformance("acme", () => makeAcme(...))`.
 * Above all, no return the plugin did not produce for this very payment may ever count as paid.
 */
export const gatewayPluginConformance = (name: string, makePlugin: () => GatewayPlugin, sample: GatewayConformanceSample = {}): void => {
  describe(`gateway plugin conformance: ${name}`, () => {
    const plugin = makePlugin()
    const request = (trxId: string) => sampleRequest(plugin, trxId, sample.request)
    // Well-formed sandbox transaction ids: "SANDBOX_" and 26 Crockford base32 characters.
    const payment = request(`SANDBOX_${"0".repeat(24)}CA`)
    const another = request(`SANDBOX_${"0".repeat(24)}CB`)

    const begin = (checkout: CheckoutRequest) => Effect.runPromise(plugin.beginCheckout(checkout))
    /** The outcome, or the error's tag: a defect rejects and fails the test on its own. */
    const settle = async (received: Parameters<GatewayPlugin["handleReturn"]>[0]): Promise<string> =>
      Either.match(await Effect.runPromise(Effect.either(plugin.handleReturn(received))), {
        onLeft: (error) => error._tag,
        onRight: (outcome): string => outcome
      })

    /** The fields a customer's chosen outcome sends back, from the plugin's sample or its own form. */
    const fieldsFor = async (checkout: CheckoutRequest, outcome: SampleOutcome) => {
      const action = await begin(checkout)
      if (sample.makeReturnFields !== undefined) return sample.makeReturnFields(checkout, action, outcome)
      const submission = action._tag === "RenderForm" ? pressButton(action.html, TEST_IDS[outcome]) : undefined
      if (submission === undefined) {
        throw new Error(`no way to produce a ${outcome} return: render one button with data-testid="${TEST_IDS[outcome]}", or pass sample.makeReturnFields`)
      }
      expect(submission.action, "the outcome form posts back to returnUrl").toBe(checkout.returnUrl)
      return submission.fields
    }

    it("declares a well-formed identity", () => {
      expect(plugin.id).toMatch(PLUGIN_ID_PATTERN)
      expect(plugin.displayName.trim()).not.toBe("")
      expect(plugin.version).toMatch(SEMVER)
      expect(Schema.isSchema(plugin.configSchema)).toBe(true)
      if (plugin.currencies !== "any") {
        expect(plugin.currencies.length).toBeGreaterThan(0)
        for (const code of plugin.currencies) expect(code).toMatch(CURRENCY)
        expect(new Set(plugin.currencies).size).toBe(plugin.currencies.length)
      }
    })

    it("speaks this kit's plugin API version and registers", () => {
      expect(plugin.apiVersion).toBe(GATEWAY_PLUGIN_API_VERSION)
      expect(Either.isRight(makeGatewayPlugins([plugin]))).toBe(true)
    })

    it("decodes an empty config, or says why not", () => {
      const decoded = Schema.decodeUnknownEither(plugin.configSchema)({})
      if (Either.isLeft(decoded)) expect(ParseResult.TreeFormatter.formatErrorSync(decoded.left).trim()).not.toBe("")
    })

    it("begins checkout with a form posting to returnUrl, or a redirect to an absolute http(s) URL", async () => {
      const action = await begin(payment)
      if (action._tag === "RenderForm") {
        expect(action.html.trim()).not.toBe("")
        expect(action.html).not.toMatch(/<script\b/i)
        expect(formsIn(action.html).map((form) => form.action), "a form posts back to returnUrl").toContain(payment.returnUrl)
        // The sample's merchant name and description hold markup: shown or not, never as raw HTML.
        expect(action.html).not.toContain("<test>")
        expect(action.html).not.toContain("<1>")
      } else {
        expect(URL.canParse(action.url)).toBe(true)
        expect(["https:", "http:"]).toContain(new URL(action.url).protocol)
      }
    })

    it("rejects a return with no fields", async () => {
      expect(await settle(returnFor(payment, {}))).toBe("GatewayReturnRejected")
    })

    it("never counts a forged return as paid", async () => {
      const forgeries: ReadonlyArray<Record<string, string>> = [
        { outcome: "paid" },
        { status: "paid", paid: "true", success: "1", result: "success" },
        { trx_id: payment.trxId, outcome: "paid", signature: "0".repeat(64) },
        { trx_id: payment.trxId, outcome: "paid", signature: "" },
        { trx_id: payment.trxId, outcome: "paid", signature: "zz".repeat(32) }
      ]
      for (const fields of forgeries) expect(await settle(returnFor(payment, fields))).not.toBe("Paid")
    })

    for (const outcome of ["paid", "declined", "cancelled"] as const) {
      it(`settles its own ${outcome} return as ${outcome}`, async () => {
        expect(await settle(returnFor(payment, await fieldsFor(payment, outcome)))).toBe(outcome satisfies GatewayOutcome)
      })
    }

    it("rejects a paid return replayed against another payment", async () => {
      const fields = await fieldsFor(payment, "paid")
      expect(await settle(returnFor(another, fields))).toBe("GatewayReturnRejected")
      // The same fields with every mention of the first payment rewritten to name the other one.
      const renamed = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value.replaceAll(payment.trxId, another.trxId)]))
      expect(await settle(returnFor(another, renamed))).toBe("GatewayReturnRejected")
    })

    it("rejects a paid return for a different amount or currency", async () => {
      const fields = await fieldsFor(payment, "paid")
      for (const delta of [1n, 1_000_000n, -1_000_000n, 100_000_000n]) {
        expect(await settle({ ...returnFor(payment, fields), amount: Amount(payment.amount + delta) })).toBe("GatewayReturnRejected")
      }
      const currency = otherCurrency(plugin, payment.currency)
      if (currency !== undefined) expect(await settle({ ...returnFor(payment, fields), currency })).toBe("GatewayReturnRejected")
    })

    it("rejects a declined or cancelled return edited to say paid", async () => {
      for (const outcome of ["declined", "cancelled"] as const) {
        const fields = await fieldsFor(payment, outcome)
        const edited = Object.fromEntries(Object.entries(fields).map(([key, value]) => [key, value === outcome ? "paid" : value]))
        const result = await settle(returnFor(payment, edited))
        expect(result).not.toBe("Paid")
        if (Object.values(fields).includes(outcome)) expect(result).toBe("GatewayReturnRejected")
      }
    })
  })
}

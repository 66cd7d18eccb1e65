import { createHmac } from "node:crypto"
import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { CheckoutContext, ReturnContext } from "../../../core/gateways/gateway-plugin.js"
import { makeGatewayPlugins } from "../../../core/gateways/gateway-plugin-registry.js"
import { hostPlugin } from "../../../core/gateways/plugin-hosting.js"
import { formsIn, pressButton } from "../../../conformance/gateway/html-forms.js"
import { makeSandboxPlugin, SANDBOX_SECRET_LABEL, sandboxPlugin } from "./index.js"

const SECRET = new Uint8Array(32).fill(3)
const plugin = makeSandboxPlugin({ secret: SECRET })
const TRX = "SANDBOX_0000000000000000000000001Z"

const request = (overrides: Partial<CheckoutContext<unknown>> = {}): CheckoutContext<unknown> => ({
  trxId: TRX,
  amount: "12.50",
  currency: "USD",
  displayAmount: "12.50",
  description: null,
  merchantName: "Shop",
  environment: "sandbox",
  gateway: { id: 7, name: "Sandbox", code: "sandbox-usd" },
  config: {},
  returnUrl: "https://kit.example/checkout/return?a=1&b=2",
  cancelUrl: "https://kit.example/checkout/cancel",
  notifyUrl: "https://kit.example/gateways/7/notify",
  ...overrides
})

const hosted = (definition = plugin) => hostPlugin(definition)

const html = async (p: typeof plugin, checkout: CheckoutContext<unknown>) => {
  const start = await Effect.runPromise(hosted(p).beginCheckout(checkout))
  if (!("html" in start)) throw new Error("expected a form")
  return start.html
}

/** The outcome of a verified return, or "unverified". */
const settle = async (p: typeof plugin, fields: Record<string, string>, overrides: Partial<ReturnContext<unknown>> = {}) => {
  const checkout = request()
  const report = await Effect.runPromise(hosted(p).handleReturn({
    trxId: checkout.trxId, amount: checkout.amount, currency: checkout.currency, environment: "sandbox", gateway: checkout.gateway,
    config: {}, gatewayReference: null, fields, ...overrides
  }))
  return report.verified ? report.outcome : "unverified"
}

const expectedSignature = (text: string, key: Uint8Array = SECRET) => createHmac("sha256", key).update(text).digest("hex")

describe("sandbox plugin checkout form", () => {
  it("renders one POST form per outcome, back to returnUrl, each signed over id, outcome, exact amount and currency", async () => {
    const page = await html(plugin, request())
    const forms = formsIn(page)
    expect(forms).toHaveLength(3)
    for (const [testId, outcome, kind] of [["pay", "paid", "primary"], ["decline", "declined", "secondary"], ["cancel", "cancelled", "secondary"]] as const) {
      const submission = pressButton(page, testId)!
      expect(submission).toEqual({
        action: "https://kit.example/checkout/return?a=1&b=2",
        method: "post",
        fields: { trx_id: TRX, outcome, signature: expectedSignature(`${TRX}.${outcome}.12.50.USD`) }
      })
      expect(page).toContain(`class="${kind} sandbox-${testId}" data-testid="${testId}"`)
    }
    expect(page).toContain(`action="https://kit.example/checkout/return?a=1&amp;b=2"`)
    expect(page).not.toMatch(/<script|javascript:|\son[a-z]+=/i)
  })

  it("signs amounts as the exact decimal text the kit hands over: whole, tiny and large", async () => {
    for (const text of ["1000", "0.00000001", "9999999999.99999999"]) {
      const page = await html(plugin, request({ amount: text, currency: "BTC" }))
      expect(pressButton(page, "pay")!.fields["signature"]).toBe(expectedSignature(`${TRX}.paid.${text}.BTC`))
    }
  })

  it("escapes every interpolated value, including the configured label", async () => {
    const hostile = "\"><script>alert(1)</script>&'"
    const page = await html(plugin, request({
      trxId: hostile,
      returnUrl: `https://kit.example/r?x="><img src=x onerror=alert(1)>`,
      currency: "<b>",
      config: { label: "<i>Test</i> & 'co'" }
    }))
    expect(page).not.toContain("<script>")
    expect(page).not.toContain("<img")
    expect(page).not.toContain("<b>")
    expect(page).toContain("&lt;i&gt;Test&lt;/i&gt; &amp; &#39;co&#39;")
    expect(pressButton(page, "pay")!.fields["trx_id"]).toBe(hostile)
    expect(pressButton(page, "pay")!.action).toBe(`https://kit.example/r?x="><img src=x onerror=alert(1)>`)
  })

  it("shows no label heading without one", async () => {
    expect(await html(plugin, request())).not.toContain("sandbox-label")
  })

  it("refuses production payments: no money moves in the simulator", async () => {
    const failure = await Effect.runPromise(Effect.flip(hosted().beginCheckout(request({ environment: "production" }))))
    expect(failure).toMatchObject({ _tag: "PluginCallFailed", reason: "failed", message: "The sandbox simulator only serves sandbox payments." })
  })
})

describe("sandbox plugin returns", () => {
  const signed = (outcome: string, text = `${TRX}.${outcome}.12.50.USD`) => ({ trx_id: TRX, outcome, signature: expectedSignature(text) })

  it("settles each signed outcome", async () => {
    expect((await settle(plugin, signed("paid")))).toBe("paid")
    expect((await settle(plugin, signed("declined")))).toBe("declined")
    expect((await settle(plugin, signed("cancelled")))).toBe("cancelled")
    expect((await settle(plugin, { ...signed("paid"), signature: signed("paid").signature.toUpperCase() }))).toBe("paid")
  })

  it("rejects a return missing any field", async () => {
    for (const field of ["trx_id", "outcome", "signature"]) {
      const fields: Record<string, string> = signed("paid")
      delete fields[field]
      expect((await settle(plugin, fields))).toBe("unverified")
    }
  })

  it("rejects tampering with the payment, outcome, amount or currency, and another key's signature", async () => {
    const cases: ReadonlyArray<readonly [Record<string, string>, Partial<ReturnContext<unknown>>]> = [
      [{ ...signed("paid"), trx_id: "SANDBOX_OTHER" }, {}],
      [{ ...signed("declined"), outcome: "paid" }, {}],
      [{ ...signed("paid", `${TRX}.paid.12.50.USD`), outcome: "refunded" }, {}],
      [signed("paid"), { amount: "12.51" }],
      [signed("paid"), { amount: "12.5" }],
      [signed("paid"), { currency: "EUR" }],
      [signed("paid"), { trxId: "SANDBOX_0000000000000000000000002Z" }],
      [{ ...signed("paid"), signature: expectedSignature(`${TRX}.paid.12.50.USD`, new Uint8Array(32).fill(4)) }, {}],
      [{ ...signed("paid"), signature: "not hex" }, {}],
      [{ ...signed("paid"), signature: signed("paid").signature.slice(0, 62) }, {}]
    ]
    for (const [fields, overrides] of cases) expect((await settle(plugin, fields, overrides))).toBe("unverified")
  })

  it("rejects any return in production, even one correctly signed", async () => {
    expect((await settle(plugin, signed("paid"), { environment: "production" }))).toBe("unverified")
  })
})

describe("sandbox plugin identity and keys", () => {
  it("registers with the kit and accepts {} or a label as config, refusing anything else with the field named", async () => {
    expect(makeGatewayPlugins([plugin])._tag).toBe("Right")
    const parse = (value: unknown) => Effect.runPromise(Effect.either(hosted().parseConfig(value)))
    expect((await parse({}))._tag).toBe("Right")
    expect((await parse({ label: "Test cards" }))._tag).toBe("Right")
    for (const [value, text] of [[{ label: 5 }, "label"], [{ label: "" }, "label"], [{ secret: "x" }, "secret"], [[], "config"]] as const) {
      const result = await parse(value)
      expect(result._tag === "Left" && result.left).toMatchObject({ _tag: "GatewayConfigRejected" })
      if (result._tag === "Left") expect(result.left.message).toContain(text)
    }
  })

  it("refunds sandbox payments at once and refuses production ones", async () => {
    const refund = { trxId: TRX, refundTrxId: "SANDBOX_R1", gatewayReference: null, amount: "5.00", currency: "USD", idempotencyKey: "mp-refund-SANDBOX_R1", gateway: request().gateway, config: {} }
    expect(await Effect.runPromise(hosted().refund({ ...refund, environment: "sandbox" }))).toEqual({ status: "succeeded", gatewayRefundReference: "sandbox-refund-SANDBOX_R1" })
    expect(await Effect.runPromise(Effect.flip(hosted().refund({ ...refund, environment: "production" })))).toMatchObject({ reason: "failed" })
  })

  it("derives its key from the master key, so hosts sharing one verify each other's forms", async () => {
    const master = new Uint8Array(32).fill(9)
    const derived = createHmac("sha256", master).update(SANDBOX_SECRET_LABEL).digest()
    const page = await html(sandboxPlugin(master), request())
    expect(pressButton(page, "pay")!.fields["signature"]).toBe(expectedSignature(`${TRX}.paid.12.50.USD`, derived))
    expect((await settle(sandboxPlugin(Uint8Array.from(master)), pressButton(page, "pay")!.fields))).toBe("paid")
    expect((await settle(sandboxPlugin(new Uint8Array(32).fill(8)), pressButton(page, "pay")!.fields))).toBe("unverified")
  })

  it("across a master key rotation, accepts a form signed under the previous key while it is configured, and signs with the new one", async () => {
    const previous = new Uint8Array(32).fill(9)
    const next = new Uint8Array(32).fill(10)
    const renderedBefore = pressButton(await html(sandboxPlugin(previous), request()), "pay")!.fields
    expect(await settle(sandboxPlugin(next, previous), renderedBefore)).toBe("paid")
    expect(await settle(sandboxPlugin(next), renderedBefore)).toBe("unverified")
    const renderedDuring = pressButton(await html(sandboxPlugin(next, previous), request()), "pay")!.fields
    expect(await settle(sandboxPlugin(next), renderedDuring)).toBe("paid")
  })

  it("refuses a secret shorter than 32 bytes", () => {
    expect(() => makeSandboxPlugin({ secret: new Uint8Array(16) })).toThrow(RangeError)
  })
})

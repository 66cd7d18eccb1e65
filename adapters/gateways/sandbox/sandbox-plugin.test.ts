import { createHmac } from "node:crypto"
import { Effect, Either, Schema } from "effect"
import { describe, expect, it } from "vitest"
import { Amount } from "../../../core/money/amount.js"
import type { CheckoutRequest, GatewayPlugin, GatewayReturn } from "../../../core/payments/gateway-plugin.js"
import { makeGatewayPlugins } from "../../../core/payments/gateway-plugin-registry.js"
import { GatewayId } from "../../../core/shared/ids.js"
import { Instant } from "../../../core/shared/instant.js"
import { formsIn, pressButton } from "../../../conformance/gateway/html-forms.js"
import { makeSandboxPlugin, SANDBOX_SECRET_LABEL, sandboxPlugin } from "./index.js"

const SECRET = new Uint8Array(32).fill(3)
const plugin = makeSandboxPlugin({ secret: SECRET })
const TRX = "SANDBOX_0000000000000000000000001Z"

const request = (overrides: Partial<CheckoutRequest> = {}): CheckoutRequest => ({
  trxId: TRX,
  amount: Amount(1_250_000_000n),
  currency: "USD",
  displayAmount: "12.50",
  description: null,
  merchantName: "Shop",
  environment: "sandbox",
  gateway: {
    id: GatewayId(7), plugin: "sandbox", name: "Sandbox", code: "sandbox-usd", method: "sandbox", currency: "USD",
    type: "automatic", active: true, config: {}, createdAt: Instant(0n), updatedAt: Instant(0n)
  },
  returnUrl: "https://kit.example/checkout/return?a=1&b=2",
  cancelUrl: "https://kit.example/checkout/cancel",
  ...overrides
})

const html = async (p: GatewayPlugin, checkout: CheckoutRequest) => {
  const action = await Effect.runPromise(p.beginCheckout(checkout))
  if (action._tag !== "RenderForm") throw new Error("expected a form")
  return action.html
}

const settle = (p: GatewayPlugin, fields: Record<string, string>, overrides: Partial<GatewayReturn> = {}) => {
  const checkout = request()
  return Effect.runPromise(Effect.either(p.handleReturn({
    trxId: checkout.trxId, amount: checkout.amount, currency: checkout.currency, environment: "sandbox", gateway: checkout.gateway,
    fields, ...overrides
  })))
}

/** The outcome, or the error's tag. */
const tagOf = (result: Either.Either<string, { readonly _tag: string; readonly message: string }>) =>
  Either.match(result, { onLeft: (error) => error._tag, onRight: (outcome) => outcome })

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
        fields: { trx_id: TRX, outcome, signature: expectedSignature(`${TRX}.${outcome}.12.5.USD`) }
      })
      expect(page).toContain(`class="${kind} sandbox-${testId}" data-testid="${testId}"`)
    }
    expect(page).toContain(`action="https://kit.example/checkout/return?a=1&amp;b=2"`)
    expect(page).not.toMatch(/<script|javascript:|\son[a-z]+=/i)
  })

  it("signs amounts in their exact JSON number text: whole, tiny and large", async () => {
    for (const [atoms, text] of [[100_000_000_000n, "1000"], [1n, "0.00000001"], [999_999_999_999_999_999n, "9999999999.99999999"]] as const) {
      const page = await html(plugin, request({ amount: Amount(atoms), currency: "BTC" }))
      expect(pressButton(page, "pay")!.fields["signature"]).toBe(expectedSignature(`${TRX}.paid.${text}.BTC`))
    }
  })

  it("escapes every interpolated value, including the configured label", async () => {
    const hostile = "\"><script>alert(1)</script>&'"
    const page = await html(plugin, request({
      trxId: hostile,
      returnUrl: `https://kit.example/r?x="><img src=x onerror=alert(1)>`,
      currency: "<b>",
      gateway: { ...request().gateway, config: { label: "<i>Test</i> & 'co'" } }
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
    const result = await Effect.runPromise(Effect.either(plugin.beginCheckout(request({ environment: "production" }))))
    expect(Either.isLeft(result) && result.left).toMatchObject({ _tag: "GatewayFailure", retryable: false })
  })
})

describe("sandbox plugin returns", () => {
  const signed = (outcome: string, text = `${TRX}.${outcome}.12.5.USD`) => ({ trx_id: TRX, outcome, signature: expectedSignature(text) })

  it("settles each signed outcome", async () => {
    expect(tagOf(await settle(plugin, signed("paid")))).toBe("paid")
    expect(tagOf(await settle(plugin, signed("declined")))).toBe("declined")
    expect(tagOf(await settle(plugin, signed("cancelled")))).toBe("cancelled")
    expect(tagOf(await settle(plugin, { ...signed("paid"), signature: signed("paid").signature.toUpperCase() }))).toBe("paid")
  })

  it("rejects a return missing any field", async () => {
    for (const field of ["trx_id", "outcome", "signature"]) {
      const fields: Record<string, string> = signed("paid")
      delete fields[field]
      expect(tagOf(await settle(plugin, fields))).toBe("GatewayReturnRejected")
    }
  })

  it("rejects tampering with the payment, outcome, amount or currency, and another key's signature", async () => {
    const cases: ReadonlyArray<readonly [Record<string, string>, Partial<GatewayReturn>]> = [
      [{ ...signed("paid"), trx_id: "SANDBOX_OTHER" }, {}],
      [{ ...signed("declined"), outcome: "paid" }, {}],
      [{ ...signed("paid", `${TRX}.paid.12.5.USD`), outcome: "refunded" }, {}],
      [signed("paid"), { amount: Amount(1_250_000_001n) }],
      [signed("paid"), { currency: "EUR" }],
      [signed("paid"), { trxId: "SANDBOX_0000000000000000000000002Z" }],
      [{ ...signed("paid"), signature: expectedSignature(`${TRX}.paid.12.5.USD`, new Uint8Array(32).fill(4)) }, {}],
      [{ ...signed("paid"), signature: "not hex" }, {}],
      [{ ...signed("paid"), signature: signed("paid").signature.slice(0, 62) }, {}]
    ]
    for (const [fields, overrides] of cases) expect(tagOf(await settle(plugin, fields, overrides))).toBe("GatewayReturnRejected")
  })

  it("rejects any return in production, even one correctly signed", async () => {
    expect(tagOf(await settle(plugin, signed("paid"), { environment: "production" }))).toBe("GatewayReturnRejected")
  })
})

describe("sandbox plugin identity and keys", () => {
  it("registers with the kit and accepts {} or a label as config, refusing anything else", () => {
    expect(Either.isRight(makeGatewayPlugins([plugin]))).toBe(true)
    const decode = (value: unknown) => Either.isRight(Schema.decodeUnknownEither(plugin.configSchema)(value, { onExcessProperty: "error" }))
    expect([decode({}), decode({ label: "Test cards" })]).toEqual([true, true])
    expect([decode({ label: 5 }), decode({ label: "" }), decode({ secret: "x" }), decode([])]).toEqual([false, false, false, false])
  })

  it("derives its key from the master key, so hosts sharing one verify each other's forms", async () => {
    const master = new Uint8Array(32).fill(9)
    const derived = createHmac("sha256", master).update(SANDBOX_SECRET_LABEL).digest()
    const page = await html(sandboxPlugin(master), request())
    expect(pressButton(page, "pay")!.fields["signature"]).toBe(expectedSignature(`${TRX}.paid.12.5.USD`, derived))
    expect(tagOf(await settle(sandboxPlugin(Uint8Array.from(master)), pressButton(page, "pay")!.fields))).toBe("paid")
    expect(tagOf(await settle(sandboxPlugin(new Uint8Array(32).fill(8)), pressButton(page, "pay")!.fields))).toBe("GatewayReturnRejected")
  })

  it("refuses a secret shorter than 32 bytes", () => {
    expect(() => makeSandboxPlugin({ secret: new Uint8Array(16) })).toThrow(RangeError)
  })
})

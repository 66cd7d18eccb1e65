import { Effect, Either } from "effect"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { hostPlugin } from "../../../core/gateways/plugin-hosting.js"
import { checkPluginShape } from "../../../core/gateways/plugin-shape.js"
import { makeStripeCheckoutPlugin } from "./stripe-checkout-plugin.js"
import { failureOf, run } from "./testing/stripe-plugin-harness.js"

const definition = makeStripeCheckoutPlugin()
const plugin = hostPlugin(definition, { callTimeoutMillis: 2000 })

const SECRET_KEY = "sk_live_51HsecretValueNeverEchoed"
const WEBHOOK_SECRET = "whsec_secretValueNeverEchoed"
const valid = { secret_key: SECRET_KEY, webhook_secret: WEBHOOK_SECRET }

/** The administrator's reason, as the kit reports it. */
const rejection = async (raw: unknown): Promise<string> => {
  const failure = await failureOf(plugin.parseConfig(raw))
  expect(failure._tag).toBe("GatewayConfigRejected")
  return failure.message
}

describe("stripe-checkout plugin object", () => {
  it("is a well-formed v2 plugin with every capability and both secrets sealed", () => {
    expect(checkPluginShape(definition)._tag).toBe("Right")
    expect(plugin).toMatchObject({
      id: "stripe-checkout", currencies: "any", environments: ["sandbox", "production"],
      capabilities: { notifications: true, statusSync: true, refunds: true, partialRefunds: true, payouts: true, disputeEvidence: true, savedMethods: true },
      secretConfigKeys: ["secret_key", "webhook_secret"]
    })
  })
})

describe("stripe-checkout parseConfig", () => {
  it("accepts secret, restricted, test and live keys, an API base and payment method types", async () => {
    expect(await run(plugin.parseConfig(valid))).toEqual(valid)
    for (const key of ["sk_test_abc", "rk_test_abc", "rk_live_abc"]) {
      expect(await run(plugin.parseConfig({ ...valid, secret_key: key }))).toMatchObject({ secret_key: key })
    }
    expect(await run(plugin.parseConfig({ ...valid, api_base: "http://127.0.0.1:12111/", payment_method_types: ["card", "card", "ideal"] }))).toEqual({
      ...valid, api_base: "http://127.0.0.1:12111", payment_method_types: ["card", "ideal"]
    })
  })

  it("names the field and the expected shape in each refusal", async () => {
    expect(await rejection(null)).toMatch(/must be an object with secret_key and webhook_secret/)
    expect(await rejection({ webhook_secret: WEBHOOK_SECRET })).toBe("secret_key is required")
    expect(await rejection({ ...valid, secret_key: "" })).toBe("secret_key must be a non-empty string")
    expect(await rejection({ ...valid, secret_key: 42 })).toBe("secret_key must be a non-empty string")
    expect(await rejection({ ...valid, secret_key: "pk_live_publishable" })).toBe("secret_key must look like sk_test_..., sk_live_..., rk_test_... or rk_live_...")
    expect(await rejection({ secret_key: SECRET_KEY })).toBe("webhook_secret is required")
    expect(await rejection({ ...valid, webhook_secret: SECRET_KEY })).toBe("webhook_secret must look like whsec_...")
    expect(await rejection({ ...valid, api_base: "stripe.example" })).toMatch(/^api_base must be an absolute http\(s\) URL/)
    expect(await rejection({ ...valid, api_base: "ftp://stripe.example" })).toBe("api_base must be an http(s) URL")
    expect(await rejection({ ...valid, api_base: "https://stripe.example/v1" })).toMatch(/^api_base must be a bare origin/)
    expect(await rejection({ ...valid, api_base: "https://user:pw@stripe.example" })).toMatch(/^api_base must be a bare origin/)
    expect(await rejection({ ...valid, payment_method_types: [] })).toMatch(/^payment_method_types must be a non-empty list/)
    expect(await rejection({ ...valid, payment_method_types: ["Card!"] })).toMatch(/^payment_method_types must be a non-empty list/)
    expect(await rejection({ ...valid, publishable_key: "pk_test_x" })).toMatch(/^unknown config field\(s\): "publishable_key"/)
  })

  it("describes, without quoting, a field whose name is a pasted key", async () => {
    const message = await rejection({ ...valid, [SECRET_KEY]: true })
    expect(message).toMatch(/a field named like a Stripe key/)
    expect(message).not.toContain("secretValue")
    expect(await rejection({ ...valid, "9fQx2LmPzT4wKs": true })).toMatch(/a field with an unexpected name/)
  })

  it("never puts a secret's value in a message, whatever is wrong with the config", async () => {
    let refusals = 0
    await fc.assert(fc.asyncProperty(
      fc.constantFrom("sk_test_", "sk_live_", "rk_live_", "whsec_", "pk_live_", ""),
      fc.stringMatching(/^[A-Za-z0-9]{12,30}$/),
      fc.constantFrom("secret_key", "webhook_secret"),
      fc.integer({ min: 0, max: 4 }),
      async (prefix, tail, field, flaw) => {
        const secret = prefix + tail
        const raw: Record<string, unknown> = { ...valid, [field]: secret }
        if (flaw === 1) raw["api_base"] = `ftp://${secret}`
        if (flaw === 2) raw["unexpected"] = secret
        if (flaw === 3) raw[field] = ` ${secret}`
        // A bare lower-case word as a field name reads as a field, and is quoted: keys carry a prefix.
        if (flaw === 4 && prefix !== "") raw[secret] = field
        const result = await run(Effect.either(plugin.parseConfig(raw)))
        if (Either.isLeft(result)) {
          refusals++
          expect(result.left.message).not.toContain(tail)
        }
      }
    ), { numRuns: 300 })
    expect(refusals).toBeGreaterThan(200)
  })
})

import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import type { SetupContext, SetupReturnContext } from "../../../core/gateways/gateway-plugin.js"
import { hostPlugin } from "../../../core/gateways/plugin-hosting.js"
import { pressButton } from "../../../conformance/gateway/html-forms.js"
import { SANDBOX_CARDS } from "./sandbox-cards.js"
import { makeSandboxPlugin } from "./index.js"

const SECRET = new Uint8Array(32).fill(5)
const plugin = hostPlugin(makeSandboxPlugin({ secret: SECRET }))
const GATEWAY = { id: 7, name: "Sandbox", code: "sandbox-usd" }

const setup = (overrides: Partial<SetupContext<unknown>> = {}): SetupContext<unknown> => ({
  setupId: "s3tUp-id_1", currency: "USD", environment: "sandbox", gateway: GATEWAY, config: { label: "Test <cards>" }, merchantName: "Shop",
  customerEmail: "c@example.com", customerName: null, currentMethod: "sbx_pm_decline_SANDBOX_1",
  returnUrl: "https://kit.example/customer-portal/method-setups/s3tUp-id_1/return?locale=fr", cancelUrl: "https://kit.example/customer-portal",
  ...overrides
})
const page = async (context = setup()) => {
  const start = await Effect.runPromise(plugin.beginSetup(context))
  if (!("html" in start)) throw new Error("expected a form")
  return start.html
}
const settle = (fields: Record<string, string>, overrides: Partial<SetupReturnContext<unknown>> = {}) =>
  Effect.runPromise(plugin.handleSetupReturn({ setupId: "s3tUp-id_1", environment: "sandbox", gateway: GATEWAY, config: {}, fields, gatewayReference: null, ...overrides }))

describe("sandbox setup-only sessions", () => {
  it("offers every checkout test card to save, escaped, each posting its signed form to the return address", async () => {
    expect(plugin.methodSetup).toBe(true)
    const html = await page()
    expect(html).toContain("Test &lt;cards&gt;")
    for (const card of Object.keys(SANDBOX_CARDS)) {
      const button = pressButton(html, `save-card-${card}`)
      expect(button?.action).toBe(setup().returnUrl)
      expect(button?.fields).toMatchObject({ setup_id: "s3tUp-id_1", outcome: "saved", card })
    }
    expect(html).toContain("Declines twice, then succeeds")
    expect(pressButton(html, "cancel-setup")?.fields).toMatchObject({ outcome: "cancelled" })
  })

  it("a signed card is saved under a reference of its own that the simulated issuer charges by kind; a cancel is verified", async () => {
    const html = await page()
    const report = await settle(pressButton(html, "save-card-declines_twice")!.fields)
    expect(report).toEqual({
      outcome: "saved", verified: true,
      savedMethod: { reference: "sbx_pm_declines_twice_SETUP-s3tUp-id_1", brand: "visa", last4: "0341", expMonth: 12, expYear: 2034 }
    })
    const charge = (key: string) => Effect.runPromise(plugin.chargeSaved({
      method: "sbx_pm_declines_twice_SETUP-s3tUp-id_1", amount: "5.00", currency: "USD", reference: "INV-1", idempotencyKey: key, environment: "sandbox", gateway: GATEWAY, config: {}
    }))
    expect([(await charge("a")).status, (await charge("b")).status, (await charge("c")).status]).toEqual(["declined", "declined", "paid"])
    expect(await settle(pressButton(html, "cancel-setup")!.fields)).toEqual({ outcome: "cancelled", verified: true })
  })

  it("an edited card, another setup's form, a payment's signature or production is never verified", async () => {
    const fields = pressButton(await page(), "save-card-success")!.fields
    const unverified = { outcome: "pending", verified: false }
    expect(await settle({ ...fields, card: "hard_decline" })).toEqual(unverified)
    expect(await settle({ ...fields, outcome: "cancelled" })).toEqual(unverified)
    expect(await settle(fields, { setupId: "another" })).toEqual(unverified)
    expect(await settle({ ...fields, setup_id: "another" })).toEqual(unverified)
    expect(await settle({ ...fields, signature: "00" })).toEqual(unverified)
    expect(await settle(fields, { environment: "production" })).toEqual(unverified)
    await expect(Effect.runPromise(plugin.beginSetup(setup({ environment: "production" })))).rejects.toThrow(/only serves sandbox/)
  })

  it("makes a saved test card that declines every off-session charge, each under a reference of its own, for sandbox only", async () => {
    expect(plugin.testMethods).toBe(true)
    const made = (testId: string) => Effect.runPromise(plugin.testMethod({ kind: "declines", testId, environment: "sandbox", gateway: GATEWAY, config: {} }))
    const report = await made("t1")
    expect(report).toEqual({ reference: "sbx_pm_decline_TEST-t1", brand: "visa", last4: SANDBOX_CARDS.decline.last4, expMonth: 12, expYear: 2034 })
    expect((await made("t2")).reference).not.toBe(report.reference)
    const charge = (key: string) => Effect.runPromise(plugin.chargeSaved({
      method: report.reference, amount: "5.00", currency: "USD", reference: "INV-1", idempotencyKey: key, environment: "sandbox", gateway: GATEWAY, config: {}
    }))
    expect([(await charge("a")).status, (await charge("b")).status]).toEqual(["declined", "declined"])
    const bare = makeSandboxPlugin({ secret: SECRET })
    expect(await Effect.runPromise(Effect.flip(Effect.suspend(() =>
      bare.testMethod!({ kind: "declines", testId: "t3", environment: "production", gateway: GATEWAY, config: {} }) as Effect.Effect<unknown, unknown>))))
      .toMatchObject({ message: "The sandbox simulator only serves sandbox payments." })
  })
})

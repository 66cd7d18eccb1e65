import { Effect } from "effect"
import { describe, expect, it } from "vitest"
import { pressButton } from "../../../conformance/gateway/html-forms.js"
import type { CheckoutContext, SavedMethodChargeContext } from "../../../core/gateways/gateway-plugin.js"
import { hostPlugin } from "../../../core/gateways/plugin-hosting.js"
import { SANDBOX_CARDS, type SandboxCard } from "./sandbox-cards.js"
import { makeSandboxPlugin } from "./sandbox-plugin.js"

const TRX = "SANDBOX_0000000000000000000000002Z"
const hosted = () => hostPlugin(makeSandboxPlugin({ secret: new Uint8Array(32).fill(5) }))
const GATEWAY = { id: 7, name: "Sandbox", code: "sandbox-usd" }

const checkout = (overrides: Partial<CheckoutContext<unknown>> = {}): CheckoutContext<unknown> => ({
  trxId: TRX, amount: "12.50", currency: "USD", displayAmount: "12.50", description: null, merchantName: "Shop",
  environment: "sandbox", gateway: GATEWAY, config: {}, returnUrl: "https://kit.example/r", cancelUrl: "https://kit.example/c",
  notifyUrl: "https://kit.example/n", ...overrides
})

const formOf = async (plugin: ReturnType<typeof hosted>, context: CheckoutContext<unknown>) => {
  const start = await Effect.runPromise(plugin.beginCheckout(context))
  if (!("html" in start)) throw new Error("expected a form")
  return start.html
}

const returnWith = (plugin: ReturnType<typeof hosted>, fields: Record<string, string>) =>
  Effect.runPromise(plugin.handleReturn({ trxId: TRX, amount: "12.50", currency: "USD", environment: "sandbox", gateway: GATEWAY, config: {}, fields, gatewayReference: null }))

const SAVE = { saveMethod: { usage: "off_session" as const, customerEmail: "a@example.com", customerName: null } }

describe("sandbox test cards", () => {
  it("are offered only on a checkout that saves the method", async () => {
    const plugin = hosted()
    expect(pressButton(await formOf(plugin, checkout()), "pay-card-success")).toBeUndefined()
    const page = await formOf(plugin, checkout(SAVE))
    for (const card of Object.keys(SANDBOX_CARDS)) expect(pressButton(page, `pay-card-${card}`), card).toBeDefined()
    expect(pressButton(page, "pay")).toBeDefined()
  })

  it("pay the checkout and report the card saved; a card swapped in the browser is not trusted", async () => {
    const plugin = hosted()
    const page = await formOf(plugin, checkout(SAVE))
    const fields = pressButton(page, "pay-card-declines_twice")!.fields
    expect(await returnWith(plugin, fields)).toEqual({
      outcome: "paid", verified: true,
      savedMethod: { reference: `sbx_pm_declines_twice_${TRX}`, brand: "visa", last4: "0341", expMonth: 12, expYear: 2034 }
    })
    expect(await returnWith(plugin, { ...fields, card: "success" })).toMatchObject({ verified: false })
    const { card: _card, ...withoutCard } = fields
    expect(await returnWith(plugin, withoutCard)).toMatchObject({ verified: false })
  })

  it("answer off-session charges by their kind; declines_twice recovers on its third charge; a repeated key gets the same answer", async () => {
    const plugin = hosted()
    const charge = (card: SandboxCard, key: string) =>
      Effect.runPromise(plugin.chargeSaved({
        method: `sbx_pm_${card}_${TRX}`, amount: "12.50", currency: "USD", reference: "INV-1", idempotencyKey: key,
        environment: "sandbox", gateway: GATEWAY, config: {}
      } satisfies SavedMethodChargeContext<unknown>))
    expect((await charge("success", "s1")).status).toBe("paid")
    expect((await charge("decline", "d1")).status).toBe("declined")
    expect((await charge("hard_decline", "h1")).status).toBe("hard_declined")
    expect((await charge("authentication_required", "a1")).status).toBe("authentication_required")
    const twice = [await charge("declines_twice", "t1"), await charge("declines_twice", "t1"), await charge("declines_twice", "t2"), await charge("declines_twice", "t3")]
    expect(twice.map((answer) => answer.status)).toEqual(["declined", "declined", "declined", "paid"])
    expect(twice[1]).toEqual(twice[0])
  })

  it("charge nothing in production", async () => {
    const plugin = hosted()
    const failed = await Effect.runPromise(Effect.flip(plugin.chargeSaved({
      method: `sbx_pm_success_${TRX}`, amount: "1.00", currency: "USD", reference: "INV-1", idempotencyKey: "p1",
      environment: "production", gateway: GATEWAY, config: {}
    })))
    expect(failed._tag).toBe("PluginCallFailed")
  })
})

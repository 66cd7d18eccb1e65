import { Effect } from "effect"
import { expect, it } from "vitest"
import { createGateway, updateGateway } from "../../core/gateways/gateway-admin.js"
import { checkoutSettings, updateCheckoutSettings } from "../../core/merchants/checkout-settings.js"
import type { MerchantScope } from "../../core/merchants/merchant-scope.js"
import { offeredGateways } from "../../core/payments/open-checkout.js"
import type { InitiatedPayment } from "../../core/payments/initiate-payment.js"
import { MerchantId } from "../../core/shared/ids.js"

type Run = <A, E>(effect: Effect.Effect<A, E, any>) => Promise<A>

interface Shops {
  readonly shop: (label: string, currencies: ReadonlyArray<string>) => Promise<MerchantScope>
  readonly open: (scope: MerchantScope, currency: string, amount: string) => Promise<InitiatedPayment>
}

/** The API Config page: what it shows, and that saving it changes the very next checkout on this host. */
export const checkoutSettingsCases = (run: Run, { open, shop }: Shops) => {
  const gateway = (name: string, currencyCode: string, method: string, extra: { readonly type?: "manual"; readonly active?: boolean } = {}) =>
    run(createGateway({ plugin: "sandbox", name, currencyCode, method, type: extra.type ?? "automatic", active: extra.active ?? true }))

  it("API Config: shows the operator's currencies and the gateways checkout can offer; saving both applies at once", async () => {
    const cardsUsd = await gateway("Cards", "USD", "cards")
    const walletUsd = await gateway("Wallet", "USD", "wallet")
    const cardsEur = await gateway("Cards", "EUR", "cards")
    await gateway("Bank transfer", "USD", "bank", { type: "manual" })
    await gateway("Old cards", "USD", "oldcards", { active: false })
    const scope = await shop("Config Shop", ["USD"])

    const before = await run(checkoutSettings(scope))
    expect(before.currencies.length).toBeGreaterThan(150)
    expect(before.currencies.filter((currency) => currency.enabled || currency.wallet !== "none")).toEqual([{ code: "USD", enabled: true, wallet: "active" }])
    expect(before.currencies.find((currency) => currency.code === "EUR")).toEqual({ code: "EUR", enabled: false, wallet: "none" })
    // Manual and inactive gateways are never offered, so they are not offered here either.
    expect(before.gateways).toEqual([
      { id: cardsEur.id, name: "Cards", code: "cards-eur", currency: "EUR", selected: false, available: true },
      { id: cardsUsd.id, name: "Cards", code: "cards-usd", currency: "USD", selected: false, available: true },
      { id: walletUsd.id, name: "Wallet", code: "wallet-usd", currency: "USD", selected: false, available: true }
    ])
    expect(before.restricted).toBe(false)
    // The sandbox simulator takes no production payments: nothing to offer there.
    expect((await run(checkoutSettings({ ...scope, environment: "production" }))).gateways).toEqual([])

    // A checkout now offers both USD gateways (and fills this host's checkout cache).
    expect((await open(scope, "USD", "10")).eligible.map((g) => g.id)).toEqual([cardsUsd.id, walletUsd.id])

    expect(await run(updateCheckoutSettings(scope.merchant.id, { currencies: ["USD", "EUR"], gatewayIds: [walletUsd.id] }))).toEqual({
      currencies: ["EUR", "USD"],
      gatewayIds: [walletUsd.id]
    })
    const after = await run(checkoutSettings(scope))
    expect(after.currencies.filter((currency) => currency.enabled).map((currency) => [currency.code, currency.wallet])).toEqual([["EUR", "none"], ["USD", "active"]])
    expect(after.gateways.filter((g) => g.selected).map((g) => g.id)).toEqual([walletUsd.id])
    expect(after.restricted).toBe(true)

    // The very next checkout offers exactly the selected gateway, on the page too.
    const session = await open(scope, "USD", "10")
    expect([session.restricted, session.eligible.map((g) => g.id)]).toEqual([true, [walletUsd.id]])
    expect((await run(offeredGateways(session.payment))).map((g) => g.id)).toEqual([walletUsd.id])

    // A selected gateway switched off since stays listed, selected but unavailable, so it can be unticked.
    await run(updateGateway(walletUsd.id, { active: false }))
    expect((await run(checkoutSettings(scope))).gateways.find((g) => g.id === walletUsd.id)).toMatchObject({ selected: true, available: false })
    await run(updateGateway(walletUsd.id, { active: true }))

    // An empty selection lifts the restriction.
    await run(updateCheckoutSettings(scope.merchant.id, { currencies: ["USD"], gatewayIds: [] }))
    expect((await open(scope, "USD", "10")).eligible.map((g) => g.id)).toEqual([cardsUsd.id, walletUsd.id])
  })

  it("API Config: an unknown currency or gateway is refused by field, all at once, and nothing of the update is saved", async () => {
    const scope = await shop("Refused Config Shop", ["USD"])
    const known = await gateway("Known", "USD", "known")
    await run(updateCheckoutSettings(scope.merchant.id, { currencies: ["USD"], gatewayIds: [known.id] }))

    const both = await run(Effect.flip(updateCheckoutSettings(scope.merchant.id, { currencies: ["EUR", "XYZ"], gatewayIds: [987_654] })))
    expect(both).toMatchObject({
      _tag: "ValidationFailed",
      code: "INVALID_CURRENCY",
      errors: { currencies: ["Unsupported currency code: XYZ."], gatewayIds: ["Unknown gateway id: 987654."] }
    })
    // Valid currencies with an unknown gateway: the currencies are not saved either (one transaction).
    const gatewayOnly = await run(Effect.flip(updateCheckoutSettings(scope.merchant.id, { currencies: ["EUR"], gatewayIds: [known.id, 987_655] })))
    expect(gatewayOnly).toMatchObject({ _tag: "ValidationFailed", errors: { gatewayIds: ["Unknown gateway id: 987655."] } })
    expect(Object.keys((gatewayOnly as { errors: object }).errors)).toEqual(["gatewayIds"])

    const settings = await run(checkoutSettings(scope))
    expect(settings.currencies.filter((currency) => currency.enabled).map((currency) => currency.code)).toEqual(["USD"])
    expect(settings.gateways.filter((g) => g.selected).map((g) => g.id)).toEqual([known.id])
    expect((await run(Effect.flip(updateCheckoutSettings(MerchantId(987_654_321), { currencies: [], gatewayIds: [] }))))._tag).toBe("MerchantNotFound")
  })
}

import { describe, expect, it } from "vitest"
import { GatewayId } from "../shared/ids.js"
import { type CheckoutGatewayChoice, type CheckoutSettings, currenciesWithoutGateway, selectionToStore } from "./checkout-settings.js"

const gateway = (id: number, currency: string, available = true): CheckoutGatewayChoice => ({
  id: GatewayId(id), name: `Gateway ${id}`, code: `g${id}`, currency, selected: false, available
})

const settings: CheckoutSettings = {
  currencies: [],
  // USD has two gateways, EUR one, GBP only one that is no longer available.
  gateways: [gateway(1, "USD"), gateway(2, "USD"), gateway(3, "EUR"), gateway(4, "GBP", false)],
  restricted: false
}

describe("API Config choice", () => {
  it("refuses, by name, every currency taken with none of its available gateways chosen", () => {
    expect(currenciesWithoutGateway(settings, { currencies: ["USD", "EUR"], gatewayIds: [1] })).toEqual(["EUR"])
    expect(currenciesWithoutGateway(settings, { currencies: ["USD", "EUR"], gatewayIds: [] })).toEqual(["USD", "EUR"])
    expect(currenciesWithoutGateway(settings, { currencies: ["USD", "EUR"], gatewayIds: [2, 3] })).toEqual([])
  })

  it("counts neither a currency not taken nor one no available gateway serves", () => {
    expect(currenciesWithoutGateway(settings, { currencies: ["USD"], gatewayIds: [1] })).toEqual([])
    expect(currenciesWithoutGateway(settings, { currencies: ["USD", "GBP", "JPY"], gatewayIds: [1] })).toEqual([])
  })

  it("stores every available gateway chosen as no restriction, and anything less as chosen", () => {
    expect(selectionToStore(settings, { currencies: ["USD", "EUR"], gatewayIds: [3, 1, 2] })).toEqual([])
    expect(selectionToStore(settings, { currencies: ["USD", "EUR"], gatewayIds: [1, 3] })).toEqual([1, 3])
    // An unavailable gateway still chosen is a restriction: it is kept until unticked.
    expect(selectionToStore(settings, { currencies: ["USD", "EUR"], gatewayIds: [1, 2, 3, 4] })).toEqual([1, 2, 3, 4])
    expect(selectionToStore({ ...settings, gateways: [] }, { currencies: [], gatewayIds: [] })).toEqual([])
  })
})

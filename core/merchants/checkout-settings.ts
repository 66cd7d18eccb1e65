import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type { Gateway } from "../gateways/gateway.js"
import { replaceMerchantGateways } from "../gateways/gateway-admin.js"
import { offeredOnCheckout, servedIn } from "../gateways/gateway-eligibility.js"
import { GatewayPlugins } from "../gateways/gateway-plugin.js"
import { GatewayRepository } from "../gateways/gateway-repository.js"
import { CurrencyCatalog } from "../money/currency-catalog.js"
import { changesCheckoutConfig } from "../payments/checkout-config.js"
import { GatewayId, type MerchantId } from "../shared/ids.js"
import { Transactor } from "../shared/transactor.js"
import { ValidationFailed } from "../shared/validation.js"
import { WalletRepository } from "../wallets/wallet-repository.js"
import { MerchantCurrencyRepository } from "./currency-repository.js"
import { replaceCurrencies } from "./merchant-admin.js"
import type { MerchantScope } from "./merchant-scope.js"

/**
 * The merchant's API Config (spec 1.6, 4.1 steps 3 to 5): which currencies it takes and which
 * gateways hosted checkout offers. Both are the merchant's, across environments; only wallets and
 * what a plugin serves differ by environment, so those are read for the scope's.
 */

export interface CheckoutCurrency {
  /** One of the operator's currencies: the catalog (ISO 4217 and the configured crypto codes). */
  readonly code: string
  readonly enabled: boolean
  /** The scope's wallet in it: a payment also needs an active one (spec 4.1 step 4), which the operator opens. */
  readonly wallet: "active" | "inactive" | "none"
}

export interface CheckoutGatewayChoice {
  readonly id: GatewayId
  readonly name: string
  readonly code: string
  /** The one currency it takes: checkout offers it for payments in exactly that currency. */
  readonly currency: string
  readonly selected: boolean
  /** Whether checkout can offer it in this environment now; a selected one that cannot stays listed, to be unticked. */
  readonly available: boolean
}

export interface CheckoutSettings {
  readonly currencies: ReadonlyArray<CheckoutCurrency>
  /** By currency, then id. */
  readonly gateways: ReadonlyArray<CheckoutGatewayChoice>
  /** A selection is in force: only selected gateways are offered. Without one, every available gateway of the payment's currency is. */
  readonly restricted: boolean
}

const byCurrencyThenId = (a: Gateway, b: Gateway) => (a.currency < b.currency ? -1 : a.currency > b.currency ? 1 : a.id - b.id)

/** Read from the store, not the checkout cache: the page shows what was saved, at once. */
export const checkoutSettings = (scope: MerchantScope) =>
  Effect.gen(function*() {
    const merchantId = scope.merchant.id
    const gateways = yield* GatewayRepository
    const enabled = new Set(yield* (yield* MerchantCurrencyRepository).list(merchantId))
    const wallets = (yield* (yield* WalletRepository).listByMerchant(merchantId)).filter((wallet) => wallet.environment === scope.environment)
    const selection = new Set(yield* gateways.merchantSelection(merchantId))
    const all = yield* gateways.list
    const available = new Set(servedIn(scope.environment, all.filter(offeredOnCheckout), (yield* GatewayPlugins).list).map((gateway) => gateway.id))

    const settings: CheckoutSettings = {
      // A stored code the catalog no longer knows is left out: checkout refuses it, and saving drops it.
      currencies: (yield* CurrencyCatalog).codes().map((code): CheckoutCurrency => {
        const wallet = wallets.find((candidate) => candidate.currency === code)
        return { code, enabled: enabled.has(code), wallet: wallet === undefined ? "none" : wallet.active ? "active" : "inactive" }
      }),
      gateways: all
        .filter((gateway) => available.has(gateway.id) || selection.has(gateway.id))
        .sort(byCurrencyThenId)
        .map((gateway) => ({
          id: gateway.id,
          name: gateway.name,
          code: gateway.code,
          currency: gateway.currency,
          selected: selection.has(gateway.id),
          available: available.has(gateway.id)
        })),
      restricted: selection.size > 0
    }
    return settings
  })

export interface CheckoutSettingsUpdate {
  /** Every currency the merchant takes; the ones left out are disabled. */
  readonly currencies: ReadonlyArray<string>
  /** The gateways to offer; empty lifts the restriction. */
  readonly gatewayIds: ReadonlyArray<number>
}

/** Each rule broken, by field, in one answer; anything else (a missing merchant, the store) as it came. */
const oneRefusal = <E>(failures: ReadonlyArray<Option.Option<E | ValidationFailed>>): E | ValidationFailed => {
  const all = failures.flatMap((failure) => Option.toArray(failure))
  const other = all.find((failure) => !(failure instanceof ValidationFailed))
  if (other !== undefined) return other
  const invalid = all as ReadonlyArray<ValidationFailed>
  return new ValidationFailed({ errors: Object.assign({}, ...invalid.map((failure) => failure.errors)), code: invalid[0]!.code })
}

/**
 * Saves the API Config through the operator's own use cases (the same rules: a currency the catalog
 * does not know, a gateway id that does not exist), both in one transaction, so a refusal of either
 * changes neither. The inner use cases clear the checkout cache before the commit; this clears it
 * again after, so no read made in between keeps the old config on this host.
 */
export const updateCheckoutSettings = (merchantId: MerchantId, update: CheckoutSettingsUpdate) =>
  Effect.flatMap(Transactor, (transactor) =>
    transactor.withTransaction(
      Effect.all([
        replaceCurrencies(merchantId, update.currencies).pipe(
          Effect.mapError((failure) =>
            failure instanceof ValidationFailed ? new ValidationFailed({ errors: { currencies: failure.errors["currencyCodes"] ?? [] }, code: failure.code }) : failure
          )
        ),
        replaceMerchantGateways(merchantId, update.gatewayIds.map(GatewayId))
      ], { mode: "validate" }).pipe(
        Effect.mapError(oneRefusal),
        Effect.map(([currencies, gatewayIds]) => ({ currencies, gatewayIds }))
      )
    )).pipe(changesCheckoutConfig)

/** Currencies the merchant would take with none of their gateways chosen: checkout would offer nothing in them. */
export class CurrenciesWithoutGateway extends Schema.TaggedError<CurrenciesWithoutGateway>()("CurrenciesWithoutGateway", {
  currencies: Schema.Array(Schema.String)
}) {}

/** A choice made against the settings as they were shown: the currencies to take and the gateways chosen. */
export interface CheckoutChoice {
  readonly currencies: ReadonlyArray<string>
  readonly gatewayIds: ReadonlyArray<number>
}

/**
 * The currencies of a choice that an available gateway serves but none of whose gateways is chosen.
 * The selection is one list across currencies, so such a currency's checkout would have nothing to
 * offer. A currency no available gateway serves is not counted: choosing could not help it.
 */
export const currenciesWithoutGateway = (settings: CheckoutSettings, choice: CheckoutChoice): ReadonlyArray<string> => {
  const taken = new Set(choice.currencies)
  const chosen = new Set(choice.gatewayIds)
  const served = new Set(settings.gateways.filter((gateway) => gateway.available && taken.has(gateway.currency)).map((gateway) => gateway.currency))
  return [...served].filter((currency) => !settings.gateways.some((gateway) => gateway.currency === currency && chosen.has(gateway.id)))
}

/**
 * The selection to store for a choice: every available gateway chosen (and nothing else) is no
 * restriction at all, so a gateway the operator adds later is offered too; anything else is kept as chosen.
 */
export const selectionToStore = (settings: CheckoutSettings, choice: CheckoutChoice): ReadonlyArray<number> => {
  const available = settings.gateways.filter((gateway) => gateway.available).map((gateway): number => gateway.id)
  const everything = available.length > 0 && available.every((id) => choice.gatewayIds.includes(id)) && choice.gatewayIds.every((id) => available.includes(id))
  return everything ? [] : choice.gatewayIds
}

/**
 * Saves a choice made on the settings the scope shows (checkoutSettings): refused, changing nothing,
 * when a currency taken would be left with nothing to offer; otherwise saved as updateCheckoutSettings does.
 */
export const chooseCheckoutSettings = (scope: MerchantScope, choice: CheckoutChoice) =>
  Effect.gen(function*() {
    const settings = yield* checkoutSettings(scope)
    const starved = currenciesWithoutGateway(settings, choice)
    if (starved.length > 0) return yield* new CurrenciesWithoutGateway({ currencies: starved })
    return yield* updateCheckoutSettings(scope.merchant.id, { currencies: choice.currencies, gatewayIds: selectionToStore(settings, choice) })
  })

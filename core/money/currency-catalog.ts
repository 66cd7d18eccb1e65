import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { type CurrencyCatalog as Catalog, defaultCurrencyCatalog, heldExponent } from "./currencies.js"

/** The currencies this deployment knows (currencies.ts says what one is and builds it), as a service. */
export type CurrencyCatalog = Catalog

export const CurrencyCatalog = Context.GenericTag<CurrencyCatalog>("merchant-payments/CurrencyCatalog")

export const layer = (catalog: CurrencyCatalog = defaultCurrencyCatalog) => Layer.succeed(CurrencyCatalog, catalog)

/** The exponent of an amount held in `currency` (currencies.ts heldExponent), from the deployment's catalog. */
export const exponentOfHeld = (currency: string) => Effect.map(CurrencyCatalog, (catalog) => heldExponent(catalog, currency))

import { Context, Layer } from "effect"
import { type CurrencyRegistry, defaultCurrencyRegistry } from "./currencies.js"

/** The currencies this deployment knows: ISO 4217 plus the crypto codes its operator configured. */
export class CurrencyCatalog extends Context.Tag("merchant-payments/CurrencyCatalog")<CurrencyCatalog, CurrencyRegistry>() {}

export const layer = (registry: CurrencyRegistry = defaultCurrencyRegistry) => Layer.succeed(CurrencyCatalog, registry)

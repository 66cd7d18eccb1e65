import { Context, Layer, type Option } from "effect"
import { defaultCurrencyCatalog } from "./currencies.js"

/** The currencies this deployment knows: ISO 4217 plus the crypto codes its operator configured. */
export interface CurrencyCatalog {
  /** The minor-unit exponent of a supported code; codes are case-sensitive (uppercase only). */
  exponentOf(code: string): Option.Option<number>
  isKnown(code: string): boolean
  /** Every supported code, sorted. */
  codes(): ReadonlyArray<string>
}

export const CurrencyCatalog = Context.GenericTag<CurrencyCatalog>("merchant-payments/CurrencyCatalog")

export const layer = (catalog: CurrencyCatalog = defaultCurrencyCatalog) => Layer.succeed(CurrencyCatalog, catalog)

import * as Either from "effect/Either"
import * as Option from "effect/Option"
import * as Schema from "effect/Schema"
import type * as Brand from "effect/Brand"
import { MAX_EXPONENT } from "./amount.js"

/** The currencies this deployment knows: ISO 4217 plus the crypto codes its operator configured. */
export interface CurrencyCatalog {
  /** The minor-unit exponent of a supported code; codes are case-sensitive (uppercase only). */
  exponentOf(code: string): Option.Option<number>
  isKnown(code: string): boolean
  /** Every supported code, sorted. */
  codes(): ReadonlyArray<string>
}

/**
 * A currency code as accepted on the wire: 3 to 10 uppercase letters or digits, starting with a
 * letter. ISO 4217 codes are exactly 3 uppercase letters; the longer shapes exist for the crypto
 * codes an operator configures (e.g. "USDC"). Whether a well-formed code is actually supported is
 * the catalog's decision, not the schema's.
 */
export type CurrencyCode = string & Brand.Brand<"CurrencyCode">

const CURRENCY_CODE_PATTERN = /^[A-Z][A-Z0-9]{2,9}$/

/** The one statement of the rule, for every edge that refuses a malformed code. */
export const CURRENCY_CODE_RULE = "A currency code is 3 to 10 upper-case letters or digits, starting with a letter."

export const isCurrencyCode = (text: string): text is CurrencyCode => CURRENCY_CODE_PATTERN.test(text)

export const CurrencyCode = Schema.String.pipe(
  Schema.pattern(CURRENCY_CODE_PATTERN, { message: () => CURRENCY_CODE_RULE }),
  Schema.brand("CurrencyCode")
)

/**
 * Active ISO 4217 codes grouped by minor-unit exponent, as ISO publishes them (list one).
 * ISO's number is used even where everyday practice differs (ISK and CLP are 0, MGA and MRU are 2,
 * UYW and CLF are 4) because processors and ledgers exchange amounts on ISO's terms.
 * ANG is in its replacement period by XCG and stays until ISO drops it so existing merchants keep working.
 */
const ISO_EXPONENT_0 = [
  "BIF", "CLP", "DJF", "GNF", "ISK", "JPY", "KMF", "KRW", "PYG", "RWF",
  "UGX", "UYI", "VND", "VUV", "XAF", "XOF", "XPF"
] as const

const ISO_EXPONENT_2 = [
  "AED", "AFN", "ALL", "AMD", "ANG", "AOA", "ARS", "AUD", "AWG", "AZN",
  "BAM", "BBD", "BDT", "BGN", "BMD", "BND", "BOB", "BOV", "BRL", "BSD",
  "BTN", "BWP", "BYN", "BZD", "CAD", "CDF", "CHE", "CHF", "CHW", "CNY",
  "COP", "COU", "CRC", "CUP", "CVE", "CZK", "DKK", "DOP", "DZD", "EGP",
  "ERN", "ETB", "EUR", "FJD", "FKP", "GBP", "GEL", "GHS", "GIP", "GMD",
  "GTQ", "GYD", "HKD", "HNL", "HTG", "HUF", "IDR", "ILS", "INR", "IRR",
  "JMD", "KES", "KGS", "KHR", "KPW", "KYD", "KZT", "LAK", "LBP", "LKR",
  "LRD", "LSL", "MAD", "MDL", "MGA", "MKD", "MMK", "MNT", "MOP", "MRU",
  "MUR", "MVR", "MWK", "MXN", "MXV", "MYR", "MZN", "NAD", "NGN", "NIO",
  "NOK", "NPR", "NZD", "PAB", "PEN", "PGK", "PHP", "PKR", "PLN", "QAR",
  "RON", "RSD", "RUB", "SAR", "SBD", "SCR", "SDG", "SEK", "SGD", "SHP",
  "SLE", "SOS", "SRD", "SSP", "STN", "SVC", "SYP", "SZL", "THB", "TJS",
  "TMT", "TOP", "TRY", "TTD", "TWD", "TZS", "UAH", "USD", "USN", "UYU",
  "UZS", "VED", "VES", "WST", "XCD", "XCG", "YER", "ZAR", "ZMW", "ZWG"
] as const

const ISO_EXPONENT_3 = ["BHD", "IQD", "JOD", "KWD", "LYD", "OMR", "TND"] as const

const ISO_EXPONENT_4 = ["CLF", "UYW"] as const

/**
 * ISO codes with no minor unit ("N.A."): precious metals, SDR-style units of account, the test
 * code and "no currency". They are not payable currencies, but they stay reserved so an operator
 * cannot configure a crypto code that a reader would mistake for gold or a test code.
 */
const ISO_WITHOUT_MINOR_UNIT = [
  "XAD", "XAG", "XAU", "XBA", "XBB", "XBC", "XBD", "XDR", "XPD", "XPT",
  "XSU", "XTS", "XUA", "XXX"
] as const

/** Exponent of every active ISO 4217 currency that has a minor unit. */
export const ISO_CURRENCY_EXPONENTS: ReadonlyMap<string, number> = new Map<string, number>([
  ...ISO_EXPONENT_0.map((code) => [code, 0] as const),
  ...ISO_EXPONENT_2.map((code) => [code, 2] as const),
  ...ISO_EXPONENT_3.map((code) => [code, 3] as const),
  ...ISO_EXPONENT_4.map((code) => [code, 4] as const)
])

const RESERVED_ISO_CODES: ReadonlySet<string> = new Set<string>([
  ...ISO_CURRENCY_EXPONENTS.keys(),
  ...ISO_WITHOUT_MINOR_UNIT
])

/** Crypto codes carry the full fixed scale: 8 fraction digits (satoshi-sized units). */
export const CRYPTO_EXPONENT = MAX_EXPONENT

/**
 * The exponent of an amount already held in a currency (a payment, a wallet, a refund): the
 * catalog's, else the full scale. A stored amount can outlive its currency in the catalog (an
 * operator drops a crypto code); the full scale shows and reads every atom it holds exactly, where
 * a guess would round digits away or refuse a gateway's exact report of it.
 */
export const heldExponent = (catalog: CurrencyCatalog, code: string): number =>
  Option.getOrElse(catalog.exponentOf(code), () => MAX_EXPONENT)

/** A currency configuration the catalog refuses, with the offending code. */
export class InvalidCurrencyConfig extends Schema.TaggedError<InvalidCurrencyConfig>()(
  "InvalidCurrencyConfig",
  {
    code: Schema.String,
    reason: Schema.Literal("malformed", "iso_collision", "duplicate"),
    message: Schema.String
  }
) {}

export interface CurrencyCatalogOptions {
  readonly cryptoCodes?: ReadonlyArray<string>
}

const validateCryptoCode = (
  code: string,
  seen: ReadonlySet<string>
): Option.Option<InvalidCurrencyConfig> => {
  // Crypto codes must also be valid CurrencyCodes, or requests could never name them.
  if (!isCurrencyCode(code)) {
    return Option.some(
      new InvalidCurrencyConfig({
        code,
        reason: "malformed",
        message: `crypto code ${JSON.stringify(code)} must be 3 to 10 uppercase letters or digits, starting with a letter`
      })
    )
  }
  if (RESERVED_ISO_CODES.has(code)) {
    return Option.some(
      new InvalidCurrencyConfig({
        code,
        reason: "iso_collision",
        message: `crypto code ${code} collides with the ISO 4217 code of the same name`
      })
    )
  }
  if (seen.has(code)) {
    return Option.some(
      new InvalidCurrencyConfig({ code, reason: "duplicate", message: `crypto code ${code} is configured twice` })
    )
  }
  return Option.none()
}

/**
 * The ISO table plus the operator's crypto codes at exponent 8. The first bad crypto code fails
 * the whole configuration: a partly applied currency list would make support depend on ordering.
 */
export const makeCurrencyCatalog = (
  options: CurrencyCatalogOptions = {}
): Either.Either<CurrencyCatalog, InvalidCurrencyConfig> => {
  const exponents = new Map<string, number>(ISO_CURRENCY_EXPONENTS)
  const crypto = new Set<string>()
  for (const code of options.cryptoCodes ?? []) {
    const problem = validateCryptoCode(code, crypto)
    if (Option.isSome(problem)) return Either.left(problem.value)
    crypto.add(code)
    exponents.set(code, CRYPTO_EXPONENT)
  }
  const sortedCodes: ReadonlyArray<string> = Object.freeze([...exponents.keys()].sort())
  return Either.right({
    exponentOf: (code) => Option.fromNullable(exponents.get(code)),
    isKnown: (code) => exponents.has(code),
    codes: () => sortedCodes
  })
}

/** ISO currencies only; deployments that accept crypto build their own catalog from config. */
export const defaultCurrencyCatalog: CurrencyCatalog = Either.getOrThrow(makeCurrencyCatalog())

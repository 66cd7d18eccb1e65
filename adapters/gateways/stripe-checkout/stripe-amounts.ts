/**
 * Stripe's own minor-unit exponents, which are not always ISO 4217's (MGA is 2 in ISO and 0 at
 * Stripe; ISK, IQD and LYD are 2 at Stripe): Stripe reads every `amount` in its own units.
 * https://docs.stripe.com/currencies#zero-decimal and #three-decimal
 */
const ZERO_DECIMAL = new Set([
  "BIF", "CLP", "DJF", "GNF", "JPY", "KMF", "KRW", "MGA", "PYG", "RWF", "UGX", "VND", "VUV", "XAF", "XOF", "XPF"
])
const THREE_DECIMAL = new Set(["BHD", "JOD", "KWD", "OMR", "TND"])

const DECIMAL = /^(\d+)(?:\.(\d+))?$/

/** How many fraction digits Stripe's integer amounts carry for this currency (any case). */
export const stripeExponent = (currency: string): number => {
  const code = currency.toUpperCase()
  return ZERO_DECIMAL.has(code) ? 0 : THREE_DECIMAL.has(code) ? 3 : 2
}

/**
 * An exact decimal ("12.50") as Stripe's integer amount (1250n). Trailing zeros past Stripe's
 * exponent are value-preserving and accepted, because the kit writes amounts with ISO's digits
 * ("1000.00" MGA); any other digit there cannot be charged exactly and is refused.
 */
export const toStripeMinor = (amount: string, currency: string): bigint => {
  const match = DECIMAL.exec(amount)
  if (match === null) throw new Error(`the amount must be a plain non-negative decimal such as 12.50, got "${amount}"`)
  const exponent = stripeExponent(currency)
  const fraction = match[2] ?? ""
  const kept = fraction.slice(0, exponent)
  if (/[^0]/.test(fraction.slice(exponent))) {
    throw new Error(`${currency.toUpperCase()} amounts have at most ${exponent} decimal places at Stripe, got "${amount}"`)
  }
  return BigInt(match[1]! + kept.padEnd(exponent, "0"))
}

/** Stripe's integer amount back as an exact decimal with Stripe's digits for the currency (1250 -> "12.50"). */
export const fromStripeMinor = (minor: bigint | number, currency: string): string => {
  if (typeof minor === "number" && !Number.isSafeInteger(minor)) throw new Error(`Stripe sent an amount that is not an exact integer: ${minor}`)
  const value = BigInt(minor)
  if (value < 0n) throw new Error(`Stripe sent a negative amount: ${value}`)
  const exponent = stripeExponent(currency)
  if (exponent === 0) return value.toString()
  const digits = value.toString().padStart(exponent + 1, "0")
  return `${digits.slice(0, -exponent)}.${digits.slice(-exponent)}`
}

/**
 * The integer amount as stripe-node's params want it (a `number`). Stripe's amounts stop far below
 * 2^53, so the conversion is exact; anything beyond is refused rather than rounded.
 */
export const stripeAmountParam = (minor: bigint): number => {
  if (minor > BigInt(Number.MAX_SAFE_INTEGER)) throw new Error("the amount is too large for Stripe")
  return Number(minor)
}

import type { Locale } from "./locale.js"

const formats = new Map<string, Intl.NumberFormat>()

/**
 * An amount as the customer's language writes numbers (grouping, decimal mark), with exactly the
 * currency's minor digits, followed by its code: `1,234.50 USD`, `1 234,50 USD`. The exact decimal
 * text goes into Intl as a string, which formats it as a decimal, never through a float, so every
 * digit of any amount is kept. The code rather than a symbol: unambiguous for every currency,
 * crypto codes included.
 */
export const formatAmount = (decimal: string, currency: string, exponent: number, locale: Locale): string => {
  const key = `${locale}|${exponent}`
  let format = formats.get(key)
  if (format === undefined) {
    format = new Intl.NumberFormat(locale, { minimumFractionDigits: exponent, maximumFractionDigits: exponent, roundingMode: "trunc" } as Intl.NumberFormatOptions)
    formats.set(key, format)
  }
  // Intl's typing predates string input (Intl.NumberFormat v3); V8 in Node 20 reads it as an exact decimal.
  return `${format.format(decimal as unknown as number)} ${currency}`
}

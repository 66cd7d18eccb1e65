// The money core's public surface; other folders import from here rather than from single files.
export {
  Amount,
  ATOMS_PER_UNIT,
  MAX_AMOUNT,
  MAX_BALANCE,
  MAX_EXPONENT,
  SCALE,
  ZERO,
  atomsPerMinorUnit
} from "./amount.js"
export {
  abs,
  add,
  addWithinLimit,
  AmountOverflow,
  checkedAdd,
  checkedSubtract,
  checkedSum,
  compare,
  fitsExponent,
  isNegative,
  isPositive,
  isZero,
  max,
  min,
  negate,
  roundHalfUpToExponent,
  subtract,
  sum
} from "./arithmetic.js"
export {
  CRYPTO_EXPONENT,
  CurrencyCode,
  type CurrencyRegistry,
  type CurrencyRegistryOptions,
  defaultCurrencyRegistry,
  InvalidCurrencyConfig,
  ISO_CURRENCY_EXPONENTS,
  makeCurrencyRegistry
} from "./currencies.js"
export { type FeeTerms, priceFee, type PricedFee } from "./fees.js"
export { toCurrencyString, toFixed8String, toJsonNumberText } from "./format.js"
export {
  AmountError,
  AmountErrorReason,
  type AmountInput,
  MAX_AMOUNT_TEXT_LENGTH,
  MAX_FEE_PERCENT,
  parseAmount,
  parseFeePercent,
  type ParseAmountOptions,
  parseSignedAmount
} from "./parse.js"

import { isValidBIC, validateIBAN, ValidationErrorsIBAN } from "ibantools"
import type { FieldRule } from "./field-rules.js"
import { string } from "./field-rules.js"

/**
 * An IBAN or a BIC as people write them ("de89 3704 0044 0532 0130 00"), read in their electronic
 * form (no spaces, upper case) and checked with ibantools, a maintained library that knows every
 * country's IBAN length and format and the check digits: rules that change as countries join.
 */
const electronic = (text: string): string => text.replace(/[\s-]/g, "").toUpperCase()

/** Why an IBAN is refused, in the API's words: the first of ibantools' reasons that tells the merchant what to fix. */
export const ibanProblem = (iban: string): string | undefined => {
  // A QR-IBAN only takes Swiss QR-bill payments with their reference: a payout sent to one bounces.
  const { valid, errorCodes } = validateIBAN(iban, { allowQRIBAN: false })
  if (valid) return undefined
  if (errorCodes.includes(ValidationErrorsIBAN.NoIBANCountry)) return "The iban field must start with the code of a country that uses IBANs, such as DE or FR."
  if (errorCodes.includes(ValidationErrorsIBAN.WrongBBANLength)) return `The iban field has the wrong length for an IBAN of ${iban.slice(0, 2)}.`
  if (errorCodes.includes(ValidationErrorsIBAN.QRIBANNotAllowed)) return "The iban field is a QR-IBAN, which takes QR-bill payments only: give the account's ordinary IBAN."
  if (errorCodes.includes(ValidationErrorsIBAN.WrongIBANChecksum) || errorCodes.includes(ValidationErrorsIBAN.WrongAccountBankBranchChecksum)) {
    return "The iban field's check digits do not match: it has a typing error."
  }
  return "The iban field must be a valid IBAN."
}

type TextRule<Required extends boolean> = FieldRule<string, Required>

/** The rule `base` reads with, then normalised and checked: a problem fails the field, the rest is the electronic form. */
const checked = <Required extends boolean>(base: TextRule<Required>, problemOf: (value: string) => string | undefined): TextRule<Required> => ({
  ...base,
  read: (fields, name, body) => {
    const text = base.read(fields, name, body)
    if (text === undefined) return undefined
    const value = electronic(text)
    const problem = problemOf(value)
    return problem === undefined ? value : fields.fail(name, problem)
  }
})

export const iban = <const O extends { readonly required?: boolean; readonly description?: string; readonly examples?: ReadonlyArray<unknown> }>(options: O) =>
  checked(string({ ...options, max: 64 }), ibanProblem)

export const bic = <const O extends { readonly required?: boolean; readonly description?: string; readonly examples?: ReadonlyArray<unknown> }>(options: O) =>
  checked(string({ ...options, max: 16 }), (value) =>
    isValidBIC(value) ? undefined : "The bic field must be a valid BIC: 8 or 11 letters and digits, such as DEUTDEFF.")

import { ValidationFailed } from "../../../core/shared/validation.js"

/** `startsAt` as the API says it: `starts_at`. Names already in snake_case (the edge's own) are unchanged. */
const snakeCase = (name: string): string => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`)

/**
 * A refusal as the wire says it: each field the core named after its own input (`amount`,
 * `startsAt`) under the request's field name: its snake_case, unless the endpoint's `wireNames`
 * says otherwise (`amount` is `payment_amount` where the body calls it so). Messages for fields that
 * meet under one name are kept together.
 */
export const onTheWire = (refusal: ValidationFailed, wireNames: Readonly<Record<string, string>> = {}): ValidationFailed => {
  const errors: Record<string, Array<string>> = {}
  for (const [field, messages] of Object.entries(refusal.errors)) {
    const name = wireNames[field] ?? snakeCase(field)
    errors[name] = [...(errors[name] ?? []), ...messages]
  }
  return new ValidationFailed({ errors, code: refusal.code })
}

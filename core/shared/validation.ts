import { Schema } from "effect"

/**
 * Input that breaks a rule, by field. Carries the spec's error code where one fits (INVALID_AMOUNT,
 * INVALID_CURRENCY) so the edge can answer with it; the edge alone decides the HTTP status.
 */
export class ValidationFailed extends Schema.TaggedError<ValidationFailed>()("ValidationFailed", {
  errors: Schema.Record({ key: Schema.String, value: Schema.Array(Schema.String) }),
  code: Schema.Literal("VALIDATION_FAILED", "INVALID_AMOUNT", "INVALID_CURRENCY")
}) {
  static field(field: string, message: string, code: ValidationFailed["code"] = "VALIDATION_FAILED") {
    return new ValidationFailed({ errors: { [field]: [message] }, code })
  }
}

import * as Schema from "effect/Schema"

/**
 * Input that breaks a rule, by field: the core names the fields of its own inputs (`amount`,
 * `startsAt`), and each edge says them in its own words once (HTTP: adapters/http/endpoint/wire-names.ts).
 * Carries the spec's error code where one fits (INVALID_AMOUNT,
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

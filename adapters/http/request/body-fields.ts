import * as Effect from "effect/Effect"
import type { AmountInput } from "../../../core/money/parse.js"
import { isEmailAddress, referenceProblem } from "../../../core/shared/text-rules.js"
import { ValidationFailed } from "../../../core/shared/validation.js"
import { toAmountInput, toSafeInteger } from "../contract/json-codec.js"

/** An object without its absent fields: the shape of a partial update (exactOptionalPropertyTypes). */
export const withoutUndefined = <A extends object>(value: A) =>
  Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as { [K in keyof A]?: Exclude<A[K], undefined> }

interface Rule {
  readonly required?: boolean
}

const label = (field: string) => field.replace(/_/g, " ")

/**
 * The one rule for every optional input, body field or query parameter: absent, null and "" are the
 * same. Storefronts and form-built clients send every field they know, empty ones as "", and an empty
 * optional field must not be refused for what it would have said; a required one is still missing.
 */
export const isAbsent = (value: unknown): value is undefined | null | "" => value === undefined || value === null || value === ""

// Absolute http(s) with a host; no whitespace or control character anywhere: the WHATWG parser would
// silently drop tabs and newlines and trim the ends, so what was stored would not be what was sent.
const URL_PATTERN = /^https?:\/\/[^\s\p{Cc}/?#]+(?:[/?#][^\s\p{Cc}]*)?$/iu

/** An absolute http(s) URL, or undefined. */
const parseHttpUrl = (text: string): URL | undefined => {
  if (!URL_PATTERN.test(text) || !URL.canParse(text)) return undefined
  const url = new URL(text)
  return url.hostname === "" ? undefined : url
}

/**
 * Reads fields off a JSON object body, collecting every problem before failing, so a client sees
 * all its mistakes at once (spec 7.3 `errors`: field -> messages). Absent, null and "" are the same (isAbsent).
 */
export class BodyFields {
  private readonly errors: Record<string, Array<string>> = {}
  private code: ValidationFailed["code"] = "VALIDATION_FAILED"

  constructor(
    private readonly body: Readonly<Record<string, unknown>>,
    /** A partial update's "" is a value (read-body.ts, BodyContract.update). */
    private readonly options: { readonly emptyIsValue?: boolean } = {}
  ) {}

  fail(field: string, message: string, code?: ValidationFailed["code"]): undefined {
    ;(this.errors[field] ??= []).push(message)
    if (code !== undefined && this.code === "VALIDATION_FAILED") this.code = code
    return undefined
  }

  /** Whether some field is already refused: the body will not reach its use case. */
  get refused(): boolean {
    return Object.keys(this.errors).length > 0
  }

  /** The field's value, or undefined when it is absent (isAbsent); a required one missing is then refused. */
  present(field: string, rule: Rule): unknown {
    const value = this.body[field]
    if (isAbsent(value) && !(value === "" && this.options.emptyIsValue === true)) {
      if (rule.required === true) this.fail(field, `The ${label(field)} field is required.`)
      return undefined
    }
    return value
  }

  string(field: string, rule: Rule & { readonly max?: number; readonly min?: number } = {}): string | undefined {
    const value = this.present(field, rule)
    if (value === undefined) return undefined
    if (typeof value !== "string") return this.fail(field, `The ${label(field)} field must be a string.`)
    // NUL cannot be stored in PostgreSQL text, and a lone surrogate is not text at all.
    if (value.includes("\u0000") || !value.isWellFormed()) {
      return this.fail(field, `The ${label(field)} field must be valid text without NUL characters.`)
    }
    if (rule.required === true && value.trim() === "") return this.fail(field, `The ${label(field)} field is required.`)
    if (rule.max !== undefined && [...value].length > rule.max) {
      return this.fail(field, `The ${label(field)} field must not be greater than ${rule.max} characters.`)
    }
    if (rule.min !== undefined && [...value].length < rule.min) {
      return this.fail(field, `The ${label(field)} field must be at least ${rule.min} characters.`)
    }
    return value
  }

  /**
   * An absolute http(s) URL, answered in the WHATWG parser's serialization: non-ASCII is
   * percent-encoded and the host normalised, so the stored text is always a valid `Location` and
   * every consumer (redirects, webhooks, echoes) reads the same URL. `max` bounds that serialization.
   */
  url(field: string, rule: Rule & { readonly max?: number } = {}): string | undefined {
    const value = this.string(field, rule)
    if (value === undefined) return undefined
    const url = parseHttpUrl(value)
    if (url === undefined) return this.fail(field, `The ${label(field)} field must be a valid URL.`)
    if (rule.max !== undefined && url.href.length > rule.max) {
      return this.fail(field, `The ${label(field)} field must not be greater than ${rule.max} characters once encoded.`)
    }
    return url.href
  }

  email(field: string, rule: Rule & { readonly max?: number } = {}): string | undefined {
    const value = this.string(field, rule)
    if (value === undefined) return undefined
    return isEmailAddress(value) ? value : this.fail(field, `The ${label(field)} field must be a valid email address.`)
  }

  /** A merchant reference: text that prints as itself (see referenceProblem), never blank. */
  reference(field: string, rule: Rule & { readonly max?: number } = {}): string | undefined {
    const value = this.string(field, rule)
    if (value === undefined) return undefined
    switch (referenceProblem(value)) {
      case "blank":
        return this.fail(field, `The ${label(field)} field must not be blank.`)
      case "unprintable":
        return this.fail(field, `The ${label(field)} field must not contain control, line-break or bidirectional formatting characters.`)
      default:
        return value
    }
  }

  oneOf<const A extends string>(field: string, values: ReadonlyArray<A>, rule: Rule = {}): A | undefined {
    const value = this.present(field, rule)
    if (value === undefined) return undefined
    return typeof value === "string" && (values as ReadonlyArray<string>).includes(value)
      ? (value as A)
      : this.fail(field, `The selected ${label(field)} is invalid; it must be one of: ${values.join(", ")}.`)
  }

  boolean(field: string, rule: Rule = {}): boolean | undefined {
    const value = this.present(field, rule)
    if (value === undefined) return undefined
    return typeof value === "boolean" ? value : this.fail(field, `The ${label(field)} field must be true or false.`)
  }

  integer(field: string, rule: Rule & { readonly min?: number; readonly max?: number } = {}): number | undefined {
    const value = this.present(field, rule)
    if (value === undefined) return undefined
    const integer = toSafeInteger(value)
    if (integer === undefined) return this.fail(field, `The ${label(field)} field must be an integer.`)
    if ((rule.min !== undefined && integer < rule.min) || (rule.max !== undefined && integer > rule.max)) {
      return this.fail(field, `The ${label(field)} field must be between ${rule.min ?? "-∞"} and ${rule.max ?? "∞"}.`)
    }
    return integer
  }

  /** A money value as sent (JSON number text or decimal string); its rules are the currency's, checked in core. */
  amount(field: string, rule: Rule = {}): AmountInput | undefined {
    const value = this.present(field, rule)
    if (value === undefined) return undefined
    const input = toAmountInput(value)
    return input ?? this.fail(field, `The ${label(field)} field must be a number.`, "INVALID_AMOUNT")
  }

  stringArray(field: string, rule: Rule & { readonly maxItems?: number } = {}): ReadonlyArray<string> | undefined {
    const value = this.present(field, rule)
    if (value === undefined) return undefined
    if (!Array.isArray(value) || value.some((item) => typeof item !== "string" || item.includes("\u0000") || !item.isWellFormed())) {
      return this.fail(field, `The ${label(field)} field must be an array of strings.`)
    }
    if (rule.maxItems !== undefined && value.length > rule.maxItems) {
      return this.fail(field, `The ${label(field)} field must not have more than ${rule.maxItems} items.`)
    }
    return value as ReadonlyArray<string>
  }

  integerArray(field: string, rule: Rule & { readonly maxItems?: number } = {}): ReadonlyArray<number> | undefined {
    const value = this.present(field, rule)
    if (value === undefined) return undefined
    const items = Array.isArray(value) ? value.map(toSafeInteger) : undefined
    if (items === undefined || items.some((item) => item === undefined || item < 1)) {
      return this.fail(field, `The ${label(field)} field must be an array of positive integers.`)
    }
    if (rule.maxItems !== undefined && items.length > rule.maxItems) {
      return this.fail(field, `The ${label(field)} field must not have more than ${rule.maxItems} items.`)
    }
    return items as ReadonlyArray<number>
  }

  /** Succeeds with `value` when no field failed, else fails with every collected message. Read every field first. */
  done<A>(value: () => A): Effect.Effect<A, ValidationFailed> {
    return Object.keys(this.errors).length === 0
      ? Effect.sync(value)
      : Effect.fail(new ValidationFailed({ errors: this.errors, code: this.code }))
  }
}

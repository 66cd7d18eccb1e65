import * as Either from "effect/Either"
import * as Schema from "effect/Schema"
import type { AmountInput } from "../../../core/money/parse.js"
import { CURRENCY_CODE_RULE, isCurrencyCode } from "../../../core/money/currencies.js"
import { fromIsoString, type Instant } from "../../../core/shared/instant.js"
import type { ValidationFailed } from "../../../core/shared/validation.js"
import type { BodyFields } from "../request/body-fields.js"
import { plainJsonObject } from "./json-value.js"
import { DecimalText, IsoDateTime } from "./value-schemas.js"

type Body = Readonly<Record<string, unknown>>

/**
 * One field of a request body, declared once: how the server reads it (through BodyFields, whose
 * messages are the API's) and what it accepts, as an Effect Schema the OpenAPI document is made from.
 * Both are built from the same options, so the documented limits are the enforced ones.
 */
export interface FieldRule<A, Always extends boolean = boolean, Required extends boolean = Always> {
  /** Required in the body (documented so); an absent field is then a 422. */
  readonly required: Required
  /** Whether a body that passed has a value here: a required field, or one with a default. */
  readonly always: Always
  readonly read: (fields: BodyFields, name: string, body: Body) => A | undefined
  /** The accepted value (never null or "": an absent, null or "" optional field is the same to the server). */
  readonly schema: Schema.Schema.AnyNoContext
  /** Error codes this field answers with besides VALIDATION_FAILED. */
  readonly codes: ReadonlyArray<ValidationFailed["code"]>
  /** Money: a client writes it as an exact JSON number. */
  readonly money: boolean
}

interface Doc {
  readonly description?: string
  readonly examples?: ReadonlyArray<unknown>
}

type IsRequired<O> = O extends { readonly required: true } ? true : false

interface Options extends Doc {
  readonly required?: boolean
}

/** The request's wording of a field ("currency code"), as BodyFields writes it. */
const label = (field: string) => field.replace(/_/g, " ")

const documented = (schema: Schema.Schema.AnyNoContext, doc: Doc): Schema.Schema.AnyNoContext =>
  schema.annotations({
    ...(doc.description !== undefined ? { description: doc.description } : {}),
    ...(doc.examples !== undefined ? { examples: doc.examples as [unknown, ...Array<unknown>] } : {})
  })

const lengths = (schema: Schema.Schema<string>, options: { readonly max?: number; readonly min?: number }) => {
  const withMax = options.max === undefined ? schema : schema.pipe(Schema.maxLength(options.max))
  return options.min === undefined ? withMax : withMax.pipe(Schema.minLength(options.min))
}

const rule = <A, const O extends Options>(
  options: O,
  read: FieldRule<A>["read"],
  schema: Schema.Schema.AnyNoContext,
  codes: ReadonlyArray<ValidationFailed["code"]> = [],
  money = false
): FieldRule<A, IsRequired<O>> => ({
  required: (options.required === true) as IsRequired<O>,
  always: (options.required === true) as IsRequired<O>,
  read,
  schema: documented(schema, options),
  codes,
  money
})

const requiredOf = (options: Options) => ({ required: options.required === true })

export const string = <const O extends Options & { readonly max?: number; readonly min?: number }>(options: O) =>
  rule<string, O>(options, (fields, name) => fields.string(name, { ...requiredOf(options), ...limits(options) }), lengths(Schema.String, options))

const limits = (options: { readonly max?: number; readonly min?: number }) => ({
  ...(options.max !== undefined ? { max: options.max } : {}),
  ...(options.min !== undefined ? { min: options.min } : {})
})

/** Printable text that is not blank: no control, line-break or bidirectional formatting characters. */
export const reference = <const O extends Options & { readonly max?: number }>(options: O) =>
  rule<string, O>(options, (fields, name) => fields.reference(name, { ...requiredOf(options), ...limits(options) }), lengths(Schema.String, options))

/** An absolute http(s) URL; answered back in the WHATWG serialization, which `max` bounds. */
export const url = <const O extends Options & { readonly max?: number }>(options: O) =>
  rule<string, O>(options, (fields, name) => fields.url(name, { ...requiredOf(options), ...limits(options) }),
    lengths(Schema.String.annotations({ jsonSchema: { type: "string", format: "uri" } }), options))

export const email = <const O extends Options & { readonly max?: number }>(options: O) =>
  rule<string, O>(options, (fields, name) => fields.email(name, { ...requiredOf(options), ...limits(options) }),
    lengths(Schema.String.annotations({ jsonSchema: { type: "string", format: "email" } }), options))

export const oneOf = <const L extends ReadonlyArray<string>, const O extends Options>(values: L, options: O) =>
  rule<L[number], O>(options, (fields, name) => fields.oneOf(name, values, requiredOf(options)), Schema.Literal(...values))

export const boolean = <const O extends Options>(options: O) =>
  rule<boolean, O>(options, (fields, name) => fields.boolean(name, requiredOf(options)), Schema.Boolean)

/** An optional field that reads as `value` when absent (or null). */
export const withDefault = <A>(base: FieldRule<A, false>, value: A): FieldRule<A, true, false> => ({
  ...base,
  always: true,
  read: (fields, name, body) => base.read(fields, name, body) ?? value,
  schema: base.schema.annotations({ default: value })
})

export const integer = <const O extends Options & { readonly min?: number; readonly max?: number }>(options: O) =>
  rule<number, O>(options, (fields, name) => fields.integer(name, { ...requiredOf(options), ...bounds(options) }), integerSchema(options))

const bounds = (options: { readonly min?: number; readonly max?: number }) => ({
  ...(options.min !== undefined ? { min: options.min } : {}),
  ...(options.max !== undefined ? { max: options.max } : {})
})

export const integerSchema = (options: { readonly min?: number; readonly max?: number }) => {
  const integral = Schema.Number.pipe(Schema.int())
  const withMin = options.min === undefined ? integral : integral.pipe(Schema.greaterThanOrEqualTo(options.min))
  return options.max === undefined ? withMin : withMin.pipe(Schema.lessThanOrEqualTo(options.max))
}

/** Money as sent: a JSON number or a decimal string, kept exact; its currency's rules are checked in core. */
export const amount = <const O extends Options>(options: O) =>
  rule<AmountInput, O>(options, (fields, name) => fields.amount(name, requiredOf(options)),
    Schema.Union(Schema.Number, DecimalText), ["INVALID_AMOUNT"], true)

/** An ISO 4217 code (or an operator's crypto code): refused with INVALID_CURRENCY when malformed. */
export const currencyCode = <const O extends Options>(options: O) =>
  rule<string, O>(options, (fields, name) => {
    const text = fields.string(name, { ...requiredOf(options), max: 10 })
    return text === undefined || isCurrencyCode(text) ? text : fields.fail(name, CURRENCY_CODE_RULE, "INVALID_CURRENCY")
  }, Schema.String.pipe(Schema.maxLength(10), Schema.pattern(/^[A-Z][A-Z0-9]{2,9}$/)), ["INVALID_CURRENCY"])

export const stringArray = <const O extends Options & { readonly maxItems?: number }>(options: O) =>
  rule<ReadonlyArray<string>, O>(options, (fields, name) => fields.stringArray(name, { ...requiredOf(options), ...items(options) }),
    options.maxItems === undefined ? Schema.Array(Schema.String) : Schema.Array(Schema.String).pipe(Schema.maxItems(options.maxItems)))

const items = (options: { readonly maxItems?: number }) => (options.maxItems !== undefined ? { maxItems: options.maxItems } : {})

export const integerArray = <const O extends Options & { readonly maxItems?: number }>(options: O) => {
  const list = Schema.Array(integerSchema({ min: 1 }))
  return rule<ReadonlyArray<number>, O>(options, (fields, name) => fields.integerArray(name, { ...requiredOf(options), ...items(options) }),
    options.maxItems === undefined ? list : list.pipe(Schema.maxItems(options.maxItems)))
}

/** One string or an array of strings, as sent: the route splits and normalises them. */
export const textOrList = <const O extends Options & { readonly max: number; readonly maxItems: number }>(options: O) =>
  rule<string | ReadonlyArray<string>, O>(options, (fields, name, body) =>
    typeof body[name] === "string"
      ? fields.string(name, { ...requiredOf(options), max: options.max })
      : fields.stringArray(name, { ...requiredOf(options), maxItems: options.maxItems }),
  Schema.Union(Schema.String.pipe(Schema.maxLength(options.max)), Schema.Array(Schema.String).pipe(Schema.maxItems(options.maxItems))))

/** A free-form JSON object (a plugin's config, metadata); `problem` adds the route's own rules. */
export const jsonObject = <const O extends Options & { readonly problem?: (value: Body) => string | undefined }>(options: O) =>
  rule<Body, O>(options, (fields, name) => {
    const value = fields.present(name, requiredOf(options))
    if (value === undefined) return undefined
    const plain = plainJsonObject(value)
    if (Either.isLeft(plain)) return fields.fail(name, `The ${name} field ${plain.left}.`)
    const problem = options.problem?.(plain.right)
    return problem === undefined ? plain.right : fields.fail(name, `The ${name} field ${problem}.`)
  }, Schema.Record({ key: Schema.String, value: Schema.Unknown }))

/** An ISO 8601 date-time with an offset, read as an instant. */
export const dateTime = <const O extends Options & { readonly max: number }>(options: O) =>
  rule<Instant, O>(options, (fields, name) => {
    const text = fields.string(name, { ...requiredOf(options), max: options.max })
    if (text === undefined) return undefined
    return fromIsoString(text) ??
      fields.fail(name, `The ${label(name)} field must be an ISO 8601 date-time with an offset, such as 2030-01-31T09:00:00Z.`)
  }, IsoDateTime.pipe(Schema.maxLength(options.max)))

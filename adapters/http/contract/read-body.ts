import * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { AmountInput } from "../../../core/money/parse.js"
import type { Instant } from "../../../core/shared/instant.js"
import type { ValidationFailed } from "../../../core/shared/validation.js"
import { BodyFields } from "../request/body-fields.js"
import { jsonObjectBody } from "../request/request-body.js"
import type { FieldRule } from "./field-rules.js"

export type BodyFieldRules = Readonly<Record<string, FieldRule<unknown>>>

/** A request body: its fields in the order they are read (so `errors` lists them in that order). */
export interface BodyContract<F extends BodyFieldRules = BodyFieldRules> {
  /** The name of its schema in the OpenAPI document. */
  readonly name: string
  readonly description: string
  readonly fields: F
  /**
   * A partial update (PATCH): it names only what it changes, so a field written as "" is a value to
   * judge, not a field left out (an operator blanking a name is told why not, never ignored).
   */
  readonly update: boolean
}

export const bodyContract = <const F extends BodyFieldRules>(
  name: string,
  description: string,
  fields: F,
  options: { readonly update?: boolean } = {}
): BodyContract<F> => ({
  name,
  description,
  fields,
  update: options.update === true
})

type ValueOf<R> = R extends FieldRule<infer A> ? A : never

/** What was read, before anyone asked whether it passed: any field may be missing. */
export type ReadValues<F extends BodyFieldRules> = { readonly [K in keyof F]: ValueOf<F[K]> | undefined }

/** A body that passed: required and defaulted fields hold a value. */
export type ValidValues<F extends BodyFieldRules> = {
  readonly [K in keyof F]: F[K] extends FieldRule<infer A, true, boolean> ? A : ValueOf<F[K]> | undefined
}

/** What a client writes for a field the server reads as `A`: money and date-times travel as text. */
type WireValue<A> = A extends AmountInput ? string : A extends Instant ? string : A

type WireOf<R> = R extends FieldRule<infer A> ? WireValue<A> : never

/** A body as a client writes it: the required fields, and the others when wanted. */
export type WireBody<F extends BodyFieldRules> =
  & { readonly [K in keyof F as F[K]["required"] extends true ? K : never]: WireOf<F[K]> }
  & { readonly [K in keyof F as F[K]["required"] extends true ? never : K]?: WireOf<F[K]> }

export interface ReadBody<F extends BodyFieldRules> {
  readonly values: ReadValues<F>
  /** For a route's own cross-field checks (an ipn_url's target...), made before `done`. */
  readonly fields: BodyFields
  /** Fails with every collected message, or builds from the valid values. */
  readonly done: <B>(build: (valid: ValidValues<F>) => B) => Effect.Effect<B, ValidationFailed>
}

/** Reads every field of the contract, collecting every problem, without failing yet. */
export const readBody = <F extends BodyFieldRules>(contract: BodyContract<F>, body: Readonly<Record<string, unknown>>): ReadBody<F> => {
  const fields = new BodyFields(body, { emptyIsValue: contract.update })
  const values: Record<string, unknown> = {}
  for (const [name, rule] of Object.entries(contract.fields)) values[name] = rule.read(fields, name, body)
  return {
    values: values as ReadValues<F>,
    fields,
    // A required field that is missing has failed, so a body that passed holds every one.
    done: (build) => fields.done(() => build(values as ValidValues<F>))
  }
}

/** The request's JSON object body read against a contract. */
export const readJsonBody = <F extends BodyFieldRules>(contract: BodyContract<F>) =>
  Effect.map(jsonObjectBody, (body) => readBody(contract, body))

/** Reads and checks a body with no cross-field rules: its valid values, or every problem. */
export const validBody = <F extends BodyFieldRules>(contract: BodyContract<F>) =>
  Effect.flatMap(readJsonBody(contract), (read) => read.done((valid) => valid))

/** Written for an optional field: the same as leaving it out (isAbsent). */
const AbsentValue = Schema.Union(Schema.Null, Schema.Literal(""))

/** The body as documented: required fields, optional ones that may also be null or "" (both are absent; null only in an update). */
export const bodySchema = (contract: BodyContract): Schema.Schema.AnyNoContext =>
  Schema.Struct(Object.fromEntries(Object.entries(contract.fields).map(([name, rule]) =>
    [name, rule.required ? rule.schema : Schema.optional(Schema.Union(rule.schema, contract.update ? Schema.Null : AbsentValue))]))).annotations({
    identifier: contract.name,
    description: contract.description
  })

/** The error codes a body can be refused with (422). */
export const bodyErrorCodes = (contract: BodyContract): ReadonlyArray<ValidationFailed["code"]> =>
  ["VALIDATION_FAILED", ...new Set(Object.values(contract.fields).flatMap((rule) => rule.codes))]

import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { type Amount, SCALE } from "../../../core/money/amount.js"
import { parseAmount } from "../../../core/money/parse.js"
import { fromIsoString, type Instant } from "../../../core/shared/instant.js"
import { lastPage, type Page, type PageRequest } from "../../../core/shared/page.js"
import { ValidationFailed } from "../../../core/shared/validation.js"
import { pageParameter, perPageParameter, type QueryReader } from "../contract/parameters.js"
import { isAbsent } from "./body-fields.js"

/**
 * The query of a paginated list: `page` (from 1), `per_page` (1 to 100, default 20) and the filters
 * the route names, each given at most once (an empty one is absent, as an empty body field is). Every bad parameter is reported at once, as a body's
 * fields are; parameters the route does not know are ignored, as browsers and proxies add their own.
 */
export class ListQuery implements QueryReader {
  readonly errors: Record<string, Array<string>> = {}

  constructor(private readonly params: URLSearchParams) {}

  private fail(name: string, message: string): undefined {
    ;(this.errors[name] ??= []).push(message)
    return undefined
  }

  /** The value of a parameter given once; absent (or empty, isAbsent) is undefined, a repeated one is an error. */
  private single(name: string): string | undefined {
    const values = this.params.getAll(name).filter((value) => !isAbsent(value))
    if (values.length > 1) return this.fail(name, `The ${name} parameter must be given once.`)
    return values[0]
  }

  integer(name: string, min: number, max: number): number | undefined {
    const text = this.single(name)
    if (text === undefined) return undefined
    // Digits only: `1e2`, `+3`, ` 4` and `5.0` are not what a client meant to send as a page.
    const value = /^\d{1,10}$/.test(text) ? Number(text) : Number.NaN
    if (!(value >= min && value <= max)) return this.fail(name, `The ${name} parameter must be a whole number from ${min} to ${max}.`)
    return value
  }

  page(): PageRequest {
    return { page: pageParameter.read(this), perPage: perPageParameter.read(this) }
  }

  oneOf<A extends string>(name: string, allowed: ReadonlyArray<A>): A | undefined {
    const text = this.single(name)
    if (text === undefined) return undefined
    if ((allowed as ReadonlyArray<string>).includes(text)) return text as A
    return this.fail(name, `The ${name} parameter must be one of: ${allowed.join(", ")}.`)
  }

  /** Text of at most `max` characters. */
  text(name: string, max: number): string | undefined {
    const text = this.single(name)
    if (text === undefined) return undefined
    if (text.length > max) return this.fail(name, `The ${name} parameter must be 1 to ${max} characters.`)
    return text
  }

  /** An ISO 8601 date-time with an offset (`Z` or `+01:00`, which a query must send as `%2B01:00`). */
  instant(name: string): Instant | undefined {
    const text = this.single(name)
    if (text === undefined) return undefined
    return fromIsoString(text) ?? this.fail(name, `The ${name} parameter must be an ISO 8601 date-time with an offset, such as 2030-01-31T09:00:00Z.`)
  }

  /**
   * A positive amount as a plain decimal (`10.50`), read exactly by the money module: no exponent,
   * sign or float, as a query has no JSON number to keep its digits.
   */
  amount(name: string): Amount | undefined {
    const text = this.single(name)
    if (text === undefined) return undefined
    const parsed = /^\d{1,19}(\.\d{1,8})?$/.test(text)
      ? parseAmount({ kind: "string", value: text }, SCALE, { allowZero: false })
      : undefined
    return parsed !== undefined && Either.isRight(parsed)
      ? parsed.right
      : this.fail(name, `The ${name} parameter must be a positive decimal amount with at most ${SCALE} decimals, such as 10.50.`)
  }

  /**
   * Records that a required parameter was not given (a value given and refused was told by its reader
   * already). Typed as never: with an error recorded, `done` refuses the query, so no handler sees it.
   */
  required(name: string): never {
    if (this.single(name) === undefined && !(name in this.errors)) this.fail(name, `The ${name} parameter is required.`)
    return undefined as never
  }

  done<A>(value: A): Effect.Effect<A, ValidationFailed> {
    return Object.keys(this.errors).length === 0
      ? Effect.succeed(value)
      : Effect.fail(new ValidationFailed({ errors: this.errors, code: "VALIDATION_FAILED" }))
  }
}

export const listQuery = Effect.map(
  HttpServerRequest.HttpServerRequest,
  (request) => new ListQuery(new URL(request.url, "http://list.invalid").searchParams)
)

/** `{ data, meta }`, the one envelope of every page-numbered list. */
export const pageJson = <A, B>(page: Page<A>, toJson: (item: A) => B) => ({
  data: page.items.map(toJson),
  meta: { current_page: page.page, per_page: page.perPage, total: page.total, last_page: lastPage(page) }
})

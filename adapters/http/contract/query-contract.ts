import type * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import type { ValidationFailed } from "../../../core/shared/validation.js"
import { ListQuery, listQuery } from "../request/page-query.js"
import { type ListParameter, pageParameter, type Parameter, perPageParameter } from "./parameters.js"

/**
 * An endpoint's query, declared once: its parameters (each with the Schema the OpenAPI document
 * shows and the shared rule it is read with) and the one decode that turns the request's query into
 * a typed object before the handler runs, every bad parameter reported at once. The object is keyed
 * by the parameters' wire names, so the typed client's `query` is the same shape.
 */
export interface QueryContract<Q> {
  readonly parameters: ReadonlyArray<Parameter>
  readonly decode: Effect.Effect<Q, ValidationFailed, HttpServerRequest.HttpServerRequest>
}

type Decoded<P> = P extends ListParameter<infer A> ? A : never

/**
 * The decoded object of a record of list parameters: a filter left out is a key left out (so the
 * object passes to a use case's optional fields as it is), one with a default is always there.
 */
export type QueryOfParameters<P extends Readonly<Record<string, ListParameter<unknown>>>> = Flat<
  & { readonly [K in keyof P as undefined extends Decoded<P[K]> ? never : K]: Decoded<P[K]> }
  & { readonly [K in keyof P as undefined extends Decoded<P[K]> ? K : never]?: Exclude<Decoded<P[K]>, undefined> }
>

type Flat<T> = { [K in keyof T]: T[K] }

/** A query read by ListQuery, which a page (answering its refusals in HTML) may also read from given parameters. */
export interface ListQueryContract<Q> extends QueryContract<Q> {
  /** The typed object and every refusal by parameter name (none when the object is good). */
  readonly read: (params: URLSearchParams) => { readonly value: Q; readonly errors: Readonly<Record<string, ReadonlyArray<string>>> }
}

/** A query read by ListQuery: each key is its parameter's wire name (a mismatch is a defect at load). */
export const queryOf = <const P extends Readonly<Record<string, ListParameter<unknown>>>>(fields: P): ListQueryContract<QueryOfParameters<P>> => {
  const parameters = Object.entries(fields).map(([key, parameter]) => {
    if (parameter.name !== key) throw new Error(`query key ${key} must be its parameter's name (${parameter.name})`)
    return parameter
  })
  const valueOf = (query: ListQuery) => Object.fromEntries(
    parameters.map((parameter) => [parameter.name, parameter.read(query)]).filter(([, value]) => value !== undefined)
  ) as QueryOfParameters<P>
  return {
    parameters,
    decode: Effect.flatMap(listQuery, (query) => query.done(valueOf(query))),
    read: (params) => {
      const query = new ListQuery(params)
      return { value: valueOf(query), errors: query.errors }
    }
  }
}

/** `?page=&per_page=`: the query of every page-numbered list. */
export const pageNumberQuery = { page: pageParameter, per_page: perPageParameter } as const

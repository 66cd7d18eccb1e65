import * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type { ApiError } from "../response/api-error.js"
import type { TextFile } from "../response/text-file.js"
import type { BodyContract } from "../contract/read-body.js"
import type { QueryContract } from "../contract/query-contract.js"
import type { ErrorTag, Operation } from "../openapi/operation.js"
import type { TextBodyContract } from "../request/request-body.js"

/**
 * What any handler may fail with without listing it, because the document adds it from the
 * declaration itself: a body or parameter refused (422), a body that is not JSON, too large or of
 * another type (only a handler that reads a body can meet these), a path naming nothing (404), the
 * store failing (500) or out of reach (503).
 */
export type ImpliedErrorTag =
  | "ValidationFailed"
  | "MalformedJson"
  | "BodyTooLarge"
  | "UnsupportedMediaType"
  | "ResourceNotFound"
  | "StorageError"
  | "StoreUnavailable"

/** The API errors carrying one of `Tags`. */
export type ErrorsTagged<Tags extends ErrorTag> = Extract<ApiError, { readonly _tag: Tags }>

/**
 * Who may call an endpoint: the merchant API's schemes (spec 5: signed, and signed with X-Environment
 * defaulting to production), or the operator's bearer token (/admin/v1).
 */
export type EndpointSecurity = "merchant" | "merchant-production-default" | "admin"

/**
 * One endpoint of the merchant or the admin API, declared once: the router, the OpenAPI document and the
 * client's operations are all read from it. The handler answers the success schema's value (the
 * status is `success.status`); it may fail only with the declared `errors` and the implied ones, so
 * a use case that learns a new refusal does not compile until the document says so. The literal
 * types of its id, path and body stay on the value for the client's types.
 */
export interface Endpoint<
  S extends Schema.Schema.AnyNoContext = Schema.Schema.AnyNoContext,
  R = unknown,
  Id extends string = string,
  Path extends string = string,
  B extends BodyContract = BodyContract,
  Q = unknown
> extends Omit<Operation, "operationId" | "path" | "body" | "textBody"> {
  readonly operationId: Id
  readonly path: Path
  readonly body?: B
  readonly security: EndpointSecurity
  readonly success: EndpointSuccess<S>
  /** Core input names whose request field is not their snake_case (`amount` sent as `payment_amount`). */
  readonly wireNames?: Readonly<Record<string, string>>
  /**
   * An admin change that commits as it goes (a scheduler tick: a transaction per subscription, under
   * a lease others must see at once) and so cannot run inside one transaction with its audit entry:
   * the entry is written right after it instead.
   */
  readonly commitsAsItGoes?: true
  /** A body of text of one type (a CSV upload) instead of JSON: read with its own limit, given to the handler as RawBody. */
  readonly textBody?: TextBodyContract
  /**
   * The answer carries a bearer secret (a customer portal link): it is never kept for Idempotency-Key
   * replay, since the store would then hold the secret itself; a repeated POST runs again instead.
   */
  readonly secretAnswer?: true
  /** An admin read worth recording as a change is (a file with account numbers in full): audited although a GET. */
  readonly auditedRead?: true
  /** The query, decoded once before the handler, which is then given it; its parameters are in `parameters`. */
  readonly query?: QueryContract<Q>
  readonly handler: EndpointHandler<Schema.Schema.Type<S> | TextFile, ApiError, R, Q>
}

/**
 * The answer: its JSON schema, and the file types (`text/csv`) the same answer may come as instead,
 * when the request asks for one (the handler then answers a TextFile).
 */
export interface EndpointSuccess<S> {
  readonly status: number
  readonly description: string
  readonly schema: S
  readonly files?: ReadonlyArray<string>
}

/**
 * What answers an endpoint: an effect, or, for one that declares its query, a function of the decoded
 * query. Written as a method so a list of endpoints with different queries is one array type.
 */
export type EndpointHandler<A, E, R, Q> = Effect.Effect<A, E, R> | { answer(query: Q): Effect.Effect<A, E, R> }["answer"]

/** Declares an endpoint: its types are inferred, and its handler checked against the declared errors. */
export const endpoint = <
  S extends Schema.Schema.AnyNoContext,
  R,
  const Id extends string,
  const Path extends string,
  B extends BodyContract = never,
  const Tags extends ErrorTag = never,
  Q = never
>(
  declaration: Omit<Operation, "operationId" | "path" | "body" | "security" | "success" | "errors" | "textBody"> & {
    readonly operationId: Id
    readonly path: Path
    readonly body?: B
    readonly security: EndpointSecurity
    readonly success: EndpointSuccess<S>
    readonly errors?: ReadonlyArray<Tags>
    readonly wireNames?: Readonly<Record<string, string>>
    readonly commitsAsItGoes?: true
    readonly textBody?: TextBodyContract
    readonly auditedRead?: true
    readonly secretAnswer?: true
    readonly query?: QueryContract<Q>
    // NoInfer: the declared list alone says what may fail; the handler is checked against it.
    readonly handler: EndpointHandler<Schema.Schema.Type<S> | TextFile, ErrorsTagged<NoInfer<Tags> | ImpliedErrorTag>, R, NoInfer<Q>>
  }
): Endpoint<S, R, Id, Path, B, Q> => ({
  ...declaration,
  // The query's parameters follow the path's in the document, from the one declaration.
  ...(declaration.query !== undefined ? { parameters: [...(declaration.parameters ?? []), ...declaration.query.parameters] } : {})
})

/** The handler's effect, the declared query decoded first where there is one. */
export const answerOf = <A, E, R, Q>(handler: EndpointHandler<A, E, R, Q>, query: QueryContract<Q> | undefined) =>
  Effect.isEffect(handler) ? handler : query === undefined ? Effect.die("an endpoint's handler takes a query it does not declare") : Effect.flatMap(query.decode, handler)

/** The services an endpoint's handler needs. */
export type EndpointRequirements<E> = E extends Endpoint<Schema.Schema.AnyNoContext, infer R, string, string, BodyContract, infer _Q> ? R : never

import type * as Effect from "effect/Effect"
import type * as Schema from "effect/Schema"
import type { ApiError } from "../response/api-error.js"
import type { BodyContract } from "../contract/read-body.js"
import type { ErrorTag, Operation } from "../openapi/operation.js"

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
  B extends BodyContract = BodyContract
> extends Omit<Operation, "operationId" | "path" | "body"> {
  readonly operationId: Id
  readonly path: Path
  readonly body?: B
  readonly security: EndpointSecurity
  readonly success: { readonly status: number; readonly description: string; readonly schema: S }
  /** Core input names whose request field is not their snake_case (`amount` sent as `payment_amount`). */
  readonly wireNames?: Readonly<Record<string, string>>
  /**
   * An admin change that commits as it goes (a scheduler tick: a transaction per subscription, under
   * a lease others must see at once) and so cannot run inside one transaction with its audit entry:
   * the entry is written right after it instead.
   */
  readonly commitsAsItGoes?: true
  readonly handler: Effect.Effect<Schema.Schema.Type<S>, ApiError, R>
}

/** Declares an endpoint: its types are inferred, and its handler checked against the declared errors. */
export const endpoint = <
  S extends Schema.Schema.AnyNoContext,
  R,
  const Id extends string,
  const Path extends string,
  B extends BodyContract = never,
  const Tags extends ErrorTag = never
>(
  declaration: Omit<Operation, "operationId" | "path" | "body" | "security" | "success" | "errors"> & {
    readonly operationId: Id
    readonly path: Path
    readonly body?: B
    readonly security: EndpointSecurity
    readonly success: { readonly status: number; readonly description: string; readonly schema: S }
    readonly errors?: ReadonlyArray<Tags>
    readonly wireNames?: Readonly<Record<string, string>>
    readonly commitsAsItGoes?: true
    // NoInfer: the declared list alone says what may fail; the handler is checked against it.
    readonly handler: Effect.Effect<Schema.Schema.Type<S>, ErrorsTagged<NoInfer<Tags> | ImpliedErrorTag>, R>
  }
): Endpoint<S, R, Id, Path, B> => declaration

/** The services an endpoint's handler needs. */
export type EndpointRequirements<E> = E extends Endpoint<Schema.Schema.AnyNoContext, infer R, string, string> ? R : never

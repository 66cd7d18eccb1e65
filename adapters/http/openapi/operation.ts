import type * as Schema from "effect/Schema"
import type { ApiError } from "../response/api-error.js"
import type { Parameter } from "../contract/parameters.js"
import type { BodyContract } from "../contract/read-body.js"

/**
 * Who may call: the merchant signature scheme (spec 5), the same with X-Environment defaulting to
 * production (the subscription endpoints), the operator's bearer token, a merchant user's dashboard
 * session, or anyone.
 */
export type Security = "merchant" | "merchant-production-default" | "admin" | "dashboard" | "none"

export type ErrorTag = ApiError["_tag"]

/** An answer other than the JSON error body: a page, a redirect, the plugin's reply to its gateway. */
export interface OtherResponse {
  readonly status: number
  readonly description: string
  readonly contentType?: string
}

export interface Operation {
  readonly method: "get" | "post" | "put" | "patch" | "delete"
  /** The OpenAPI path template, `{name}` for each path parameter. */
  readonly path: string
  readonly operationId: string
  readonly summary: string
  readonly description?: string
  readonly tag: string
  readonly security: Security
  readonly parameters?: ReadonlyArray<Parameter>
  readonly body?: BodyContract
  /** A text body of one type (a CSV upload) instead of JSON. */
  readonly textBody?: { readonly contentType: string; readonly maxBytes: number; readonly description: string }
  readonly success: {
    readonly status: number
    readonly description: string
    /** A JSON body's schema; `contentType`, when given, says the body is of that type instead. */
    readonly schema?: Schema.Schema.AnyNoContext
    readonly contentType?: string
    /** Files the same answer may come as instead of its JSON (`text/csv`): the schema `FileAnswer` means files only. */
    readonly files?: ReadonlyArray<string>
  }
  readonly others?: ReadonlyArray<OtherResponse>
  /** What this operation itself can be refused with; the scheme's and the body's own are added. */
  readonly errors?: ReadonlyArray<ErrorTag>
}

export const HTML = "text/html"

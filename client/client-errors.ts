/** What a merchant client call can fail with, besides a caller's own abort (which rethrows its signal's reason). */

/** The error body of spec 7.3, as the service sends it. */
export interface ApiErrorBody {
  readonly success: false
  readonly message: string
  readonly error_code: string
  readonly errors: Readonly<Record<string, ReadonlyArray<string>>>
  readonly timestamp: string
  /** The request's X-Request-Id (hosts before request logs do not send it). */
  readonly request_id?: string | null
}

export interface MerchantApiErrorDetails {
  readonly status: number
  readonly method: string
  /** The path called, base path and query included (never the host, never a credential). */
  readonly path: string
  /** The 7.3 body when the answer carried one; undefined for a body that is not JSON (a proxy's page). */
  readonly body: ApiErrorBody | undefined
  /** Retry-After as milliseconds, when the answer carried a readable one. */
  readonly retryAfterMs: number | undefined
  readonly attempts: number
  /** Says what went wrong when there is no 7.3 body to quote. */
  readonly problem?: string
}

/**
 * The service answered, but not with success: any status outside 2xx, after whatever retries the
 * status allowed (429, 503, or a 409 with Retry-After). `errorCode`, `message` and `errors` are those
 * of the 7.3 body; an answer without one keeps its status and a message saying so.
 */
export class MerchantApiError extends Error {
  override readonly name = "MerchantApiError"
  readonly status: number
  readonly errorCode: string | undefined
  readonly errors: Readonly<Record<string, ReadonlyArray<string>>>
  readonly method: string
  readonly path: string
  readonly body: ApiErrorBody | undefined
  readonly retryAfterMs: number | undefined
  readonly attempts: number

  constructor(details: MerchantApiErrorDetails) {
    super(details.body?.message ?? details.problem ?? `${details.method} ${details.path} answered HTTP ${details.status} without an error body.`)
    this.status = details.status
    this.errorCode = details.body?.error_code
    this.errors = details.body?.errors ?? {}
    this.method = details.method
    this.path = details.path
    this.body = details.body
    this.retryAfterMs = details.retryAfterMs
    this.attempts = details.attempts
  }
}

export type TransportFailure = "timeout" | "network"

/**
 * No answer came back: every attempt timed out or failed on the network (`reason` is the last one's). Whether the service acted
 * on a POST is unknown; calling again with the same `idempotencyKey` is safe and tells.
 */
export class MerchantTransportError extends Error {
  override readonly name = "MerchantTransportError"

  constructor(
    readonly reason: TransportFailure,
    readonly method: string,
    readonly path: string,
    readonly attempts: number,
    /** The Idempotency-Key every attempt carried (POST only): pass it to a later call to resume safely. */
    readonly idempotencyKey: string | undefined,
    options: { readonly cause: unknown }
  ) {
    super(
      `${method} ${path} got no answer in ${attempts} attempt(s); the last ${reason === "timeout" ? "timed out" : "failed on the network"}.`,
      { cause: options.cause }
    )
  }
}

/** Whether `value` has the shape of a 7.3 error body (checked before it is trusted as one). */
export const isApiErrorBody = (value: unknown): value is ApiErrorBody => {
  if (typeof value !== "object" || value === null) return false
  const body = value as Record<string, unknown>
  return body["success"] === false && typeof body["message"] === "string" && typeof body["error_code"] === "string"
}

/** The 7.3 body with `errors` made safe to read (some answers omit it). */
export const normalizeErrorBody = (body: ApiErrorBody): ApiErrorBody => ({
  ...body,
  errors: typeof body.errors === "object" && body.errors !== null ? body.errors : {}
})

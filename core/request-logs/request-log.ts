import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type * as Option from "effect/Option"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import type { Instant } from "../shared/instant.js"
import type { StorageError } from "../shared/storage-error.js"
import type { SignatureCheck } from "../signing/signature-diagnosis.js"

/** A refused call's error as its 7.3 body said it. */
export interface RequestLogError {
  readonly errorCode: string
  readonly message: string
}

/** One merchant API call as kept: bodies already redacted and bounded (request-log-redaction.ts). */
export interface NewRequestLog {
  readonly id: string
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly requestId: string
  readonly method: string
  /** The path with its query, as the client called it. */
  readonly path: string
  readonly status: number
  readonly durationMs: number
  readonly idempotencyKey: string | null
  readonly error: RequestLogError | null
  readonly requestBody: string | null
  readonly responseBody: string | null
  /** A refused timestamp or signature: what the kit signed to compare, and the likely mistake. */
  readonly signatureCheck: SignatureCheck | null
  readonly createdAt: Instant
}

export type RequestLog = NewRequestLog

/** Statuses from `min` to `max` inclusive: one code (401) or a class (4xx). */
export interface StatusRange {
  readonly min: number
  readonly max: number
}

export interface RequestLogQuery {
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly status?: StatusRange
  /** Paths (with their query) that start with this text. */
  readonly pathPrefix?: string
  /** Created at or after. */
  readonly since?: Instant
  /** Created before. */
  readonly until?: Instant
  /** Entries older than this one only, in (createdAt, id) order. */
  readonly before?: { readonly createdAt: Instant; readonly id: string }
  readonly limit: number
}

/**
 * The merchant API calls kept for their merchant to read: written in batches after the answers
 * (request-log-writer.ts), read newest first, removed once older than the retention.
 */
export class RequestLogRepository extends Context.Tag("merchant-payments/RequestLogRepository")<RequestLogRepository, {
  readonly record: (entries: ReadonlyArray<NewRequestLog>) => Effect.Effect<void, StorageError>
  /** Newest first: by creation time, then id. */
  readonly list: (query: RequestLogQuery) => Effect.Effect<ReadonlyArray<RequestLog>, StorageError>
  /** One entry of that merchant and environment by its id; none for anyone else's. */
  readonly find: (query: { readonly merchantId: MerchantId; readonly environment: Environment; readonly id: string }) => Effect.Effect<Option.Option<RequestLog>, StorageError>
  /** Removes at most `batchSize` entries created before `before`; how many it removed. */
  readonly purgeBefore: (before: Instant, batchSize: number) => Effect.Effect<number, StorageError>
}>() {}

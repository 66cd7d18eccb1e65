import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import * as Either from "effect/Either"
import { AuditLog } from "../../../core/audit/audit-log.js"
import { Authenticator } from "../../../core/merchants/authenticator.js"
import { CheckoutConfigCache } from "../../../core/payments/checkout-config.js"
import { now } from "../../../core/shared/instant.js"
import { Transactor } from "../../../core/shared/transactor.js"
import type { ApiError } from "../response/api-error.js"
import type { ApiResponse } from "../response/api-response.js"
import { describeError } from "../response/error-table.js"
import { RawBody, readEndpointRawBody, type TextBodyContract } from "../request/request-body.js"
import { adminAuditEntry, type AuditedOperation } from "./admin-audit-entry.js"

export interface AdminOperation extends AuditedOperation {
  /** The handler commits as it goes (see `Endpoint.commitsAsItGoes`): its entry is written after it. */
  readonly commitsAsItGoes?: boolean
  /** The endpoint reads a text body of this type, not JSON. */
  readonly textBody?: TextBodyContract
  /** A read the log holds as it holds changes (see `Endpoint.auditedRead`). */
  readonly auditedRead?: boolean
}

/** GET and HEAD only read: they are not changes, and the log does not hold them. */
export const isChange = (method: string): boolean => method !== "GET" && method !== "HEAD"

export const isChangeRequest = Effect.map(HttpServerRequest.HttpServerRequest, (request) => isChange(request.method))

const EMPTY = new Uint8Array(0)

/**
 * Runs an admin change so that it is never answered as done without its audit entry. The change
 * and its entry share one transaction: if the entry cannot be written, the change is rolled back
 * and the answer is the store's failure. A change refused (4xx) changed nothing; its attempt is
 * recorded after the rollback, and a failure to record it is the answer too. A 5xx is not recorded:
 * nothing changed, the store is likely what failed, and the log line has it.
 */
export const auditedChange = <E extends ApiError, R>(operation: AdminOperation, token: string, handler: Effect.Effect<ApiResponse, E, R>) =>
  Effect.gen(function*() {
    const body = yield* Effect.either(readEndpointRawBody(operation.textBody))
    const rawBody = Either.getOrElse(body, () => EMPTY)
    const log = yield* AuditLog
    const record = (status: number, answer: unknown) =>
      Effect.flatMap(Effect.all([adminAuditEntry(operation, token, rawBody, status, answer), now]), ([entry, at]) => log.record(entry, at))
    const change = Effect.gen(function*() {
      const response = yield* (Either.isLeft(body) ? Effect.fail(body.left) : Effect.provideService(handler, RawBody, body.right))
      if (operation.commitsAsItGoes !== true) yield* record(response.status, response.body)
      return response
    })
    const { withTransaction } = yield* Transactor
    // A request that read the store between a use case's own invalidation and the commit would keep
    // the old merchant or configuration cached, and a read inside a run that was undone (refused, or
    // a lost race) may have cached what never committed: cleared again once it is over, whatever its end.
    const clearCaches = Effect.zipRight((yield* Authenticator).invalidate, (yield* CheckoutConfigCache).invalidate)
    const response = yield* (operation.commitsAsItGoes === true ? change : withTransaction(change)).pipe(
      Effect.ensuring(clearCaches),
      Effect.tapError((error) => {
        const { status } = describeError(error)
        return status >= 400 && status < 500 ? record(status, undefined) : Effect.void
      })
    )
    if (operation.commitsAsItGoes === true) yield* record(response.status, response.body)
    return response
  })

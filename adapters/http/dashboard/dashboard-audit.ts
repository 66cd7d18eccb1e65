import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import { AuditLog } from "../../../core/audit/audit-log.js"
import { now } from "../../../core/shared/instant.js"
import { requestId } from "../request/request-log.js"
import { clientAddress } from "../request/client-address.js"
import type { PageFrame } from "./layout.js"

export interface DashboardAction {
  /** What was asked, in the API's words where the API has the same operation (refundPayment). */
  readonly operation: string
  /** The page route's template, with the ids it named in `pathParams`. */
  readonly route: string
  readonly pathParams: Readonly<Record<string, string>>
  /** 303 done, 4xx refused. */
  readonly status: number
  /** The names of the form fields that mattered; never their values. */
  readonly fields: ReadonlyArray<string>
}

/**
 * One dashboard change in the audit log beside the admin API's: the merchant user who made it (a
 * platform's user under its own id), from where, in which environment (kept with the route's ids).
 */
export const recordDashboardAction = (frame: PageFrame, action: DashboardAction) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    yield* (yield* AuditLog).record({
      actorType: "merchant_user",
      actorId: frame.visitor.signedInBy === "kit" ? frame.visitor.name : `platform:${frame.visitor.userId}`,
      sourceAddress: yield* clientAddress(request),
      operation: action.operation,
      method: "POST",
      route: action.route,
      pathParams: { ...action.pathParams, environment: frame.environment },
      merchantId: frame.visitor.merchant.id,
      status: action.status,
      fields: [...action.fields].sort(),
      requestId: yield* requestId
    }, yield* now)
  })

import * as Effect from "effect/Effect"
import * as Option from "effect/Option"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import type { StorageError } from "../shared/storage-error.js"
import { RequestLogRepository, type RequestLog } from "./request-log.js"

/** Log ids as the writer makes them: anything else is no entry, without asking the store. */
const LOG_ID = /^rl_[0-9a-f]{32}$/

/**
 * One of the merchant's own calls, in the environment of the caller only: another merchant's or
 * environment's entry is not there (undefined), as one past the retention is.
 */
export const findRequestLog = (caller: MerchantScope, id: string): Effect.Effect<RequestLog | undefined, StorageError, RequestLogRepository> =>
  LOG_ID.test(id)
    ? Effect.flatMap(RequestLogRepository, (repository) =>
      Effect.map(repository.find({ merchantId: caller.merchant.id, environment: caller.environment, id }), Option.getOrUndefined))
    : Effect.succeed(undefined)

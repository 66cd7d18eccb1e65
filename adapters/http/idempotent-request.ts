import { HttpServerRequest } from "@effect/platform"
import { Effect } from "effect"
import { IdempotencyStore, type IdempotencyScope } from "../../core/idempotency/idempotency-store.js"
import {
  fingerprint,
  IN_FLIGHT_LOCK_SECONDS,
  isReplayable,
  MAX_IDEMPOTENCY_KEY_LENGTH,
  REPLAY_WINDOW_SECONDS
} from "../../core/idempotency/idempotency-policy.js"
import type { AuthenticatedMerchant } from "../../core/merchants/authenticator.js"
import { fromMillis, plusSeconds } from "../../core/shared/instant.js"
import { ValidationFailed } from "../../core/shared/validation.js"
import { IdempotencyKeyReused, IdempotentRequestInFlight } from "./edge-errors.js"
import { requestTarget } from "./request-target.js"
import type { RenderedResponse } from "./responses.js"

export const REPLAYED_HEADER = "idempotent-replayed"

/**
 * Runs a POST at most once per Idempotency-Key (spec 4.5, applied to every POST): the identical
 * request within 24 hours gets the first answer again with `Idempotent-Replayed: true`, the key
 * with other parameters is a 409, and a request still running is a 409 with Retry-After. Answers
 * of 500 and above are forgotten, so a retry runs again. Without the header the request just runs.
 */
export const idempotent = <E, R>(
  caller: AuthenticatedMerchant,
  rawBody: Uint8Array,
  run: Effect.Effect<RenderedResponse, E, R>
) =>
  Effect.gen(function*() {
    const request = yield* HttpServerRequest.HttpServerRequest
    const key = request.headers["idempotency-key"]
    if (request.method !== "POST" || key === undefined) return yield* run
    if (key.length === 0 || key.length > MAX_IDEMPOTENCY_KEY_LENGTH) {
      return yield* ValidationFailed.field("Idempotency-Key", `The Idempotency-Key header must be 1 to ${MAX_IDEMPOTENCY_KEY_LENGTH} characters.`)
    }
    const store = yield* IdempotencyStore
    const scope: IdempotencyScope = { merchantId: caller.merchant.id, environment: caller.environment, key }
    // Replay windows follow real time, like request timestamps, not the business clock.
    const now = fromMillis(Date.now())
    const begun = yield* store.begin({
      scope,
      fingerprint: fingerprint(request.method, requestTarget(request), rawBody),
      now,
      lockedUntil: plusSeconds(now, IN_FLIGHT_LOCK_SECONDS),
      expiresAt: plusSeconds(now, REPLAY_WINDOW_SECONDS)
    })
    switch (begun._tag) {
      case "Mismatch":
        return yield* new IdempotencyKeyReused()
      case "InFlight":
        return yield* new IdempotentRequestInFlight({ retryAfterSeconds: 1 })
      case "Replay":
        return {
          status: begun.response.status,
          text: begun.response.body,
          headers: { [REPLAYED_HEADER]: "true" }
        } satisfies RenderedResponse
      case "Started":
        return yield* run.pipe(
          Effect.tap((response) =>
            isReplayable(response.status)
              ? store.complete(scope, { status: response.status, body: response.text })
              : store.abandon(scope)
          ),
          // A failure or defect escaping `run` (the edge turns expected failures into responses
          // before this point) must free the key, or every retry would wait out the lock.
          Effect.onError(() => Effect.ignore(store.abandon(scope)))
        )
    }
  })

import * as HttpServerRequest from "@effect/platform/HttpServerRequest"
import * as Effect from "effect/Effect"
import { IdempotencyStore } from "../../../core/idempotency/idempotency-store.js"
import { fingerprintsOf, MAX_IDEMPOTENCY_KEY_LENGTH, REPLAY_WINDOW_SECONDS } from "../../../core/idempotency/idempotency-policy.js"
import type { AuthenticatedMerchant } from "../../../core/merchants/authenticator.js"
import { fromMillis, plusSeconds } from "../../../core/shared/instant.js"
import { ValidationFailed } from "../../../core/shared/validation.js"
import { IdempotencyKeyReused, IdempotentRequestInFlight } from "../response/edge-errors.js"
import { requestTarget } from "../request/request-target.js"
import type { RenderedResponse } from "../response/responses.js"

export const REPLAYED_HEADER = "idempotent-replayed"

/** Only answers below 500 are kept: a server failure is not an answer, so a retry runs again. */
const isReplayable = (status: number): boolean => status < 500

/**
 * The operation an API request asks for: its method and target, in the text the fingerprints
 * already stored were made of, so a key used before an upgrade still matches after it.
 */
const operationOf = (request: HttpServerRequest.HttpServerRequest): string => `${request.method.toUpperCase()} ${requestTarget(request)}`

/**
 * Runs a POST at most once per Idempotency-Key (spec 4.5, applied to every POST): the identical
 * request within 24 hours gets the first answer again with `Idempotent-Replayed: true`, the key
 * with other parameters is a 409, and a request still running is a 409 with Retry-After. The answer
 * is stored in the transaction of the request's own effect, so a crash can never leave an effect
 * done without its answer; answers of 500 and above are not kept and their effect is rolled back,
 * so a retry runs again. Without the header the request just runs.
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
    // Replay windows follow real time, like request timestamps, not the business clock.
    const now = fromMillis(Date.now())
    const outcome = yield* (yield* IdempotencyStore).once(
      {
        scope: { merchantId: caller.merchant.id, environment: caller.environment, key },
        ...(yield* fingerprintsOf(operationOf(request), rawBody)),
        now,
        expiresAt: plusSeconds(now, REPLAY_WINDOW_SECONDS)
      },
      run,
      (response) => (isReplayable(response.status) ? { status: response.status, body: response.text } : undefined)
    )
    switch (outcome._tag) {
      case "Mismatch":
        return yield* new IdempotencyKeyReused()
      case "InFlight":
        return yield* new IdempotentRequestInFlight({ retryAfterSeconds: 1 })
      case "Replay":
        return {
          status: outcome.response.status,
          text: outcome.response.body,
          headers: { [REPLAYED_HEADER]: "true" }
        } satisfies RenderedResponse
      case "Ran":
        return outcome.value
    }
  })

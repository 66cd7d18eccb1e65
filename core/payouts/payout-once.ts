import * as Effect from "effect/Effect"
import { fingerprintsOf, REPLAY_WINDOW_SECONDS } from "../idempotency/idempotency-policy.js"
import { IdempotencyStore } from "../idempotency/idempotency-store.js"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { plusSeconds } from "../shared/instant.js"
import { realNow } from "../shared/real-clock.js"
import { requestPayout, type PayoutRequest } from "./request-payout.js"

/** What a payout asked for under a key came to. */
export type KeyedPayout =
  /** Asked for now, or earlier under the same key with the same amount and destination. */
  | { readonly _tag: "Requested"; readonly payoutId: string }
  /** The same payout under this key is being asked for right now. */
  | { readonly _tag: "InFlight" }
  /** The key was used for another amount or destination. */
  | { readonly _tag: "Mismatch" }

const amountText = (request: PayoutRequest) => (request.amount.kind === "string" ? request.amount.value : request.amount.text)

/**
 * A payout asked for at most once per key, as the API's Idempotency-Key makes it: the dashboard's
 * payout form carries a key, so a double click or a second tab sending it moves the money once. The
 * key is claimed and the payout made in one transaction (a refusal frees the key), for 24 hours of
 * real time, in a namespace of its own beside the API's keys.
 */
export const payoutOncePerKey = (scope: MerchantScope, request: PayoutRequest, key: string) =>
  Effect.gen(function*() {
    const at = yield* realNow
    const asked = new TextEncoder().encode(`${amountText(request)}\n${request.currency}\n${request.destinationId}`)
    const outcome = yield* (yield* IdempotencyStore).once(
      {
        scope: { merchantId: scope.merchant.id, environment: scope.environment, key: `dashboard-payout:${key}` },
        ...(yield* fingerprintsOf("createPayout", asked)),
        now: at,
        expiresAt: plusSeconds(at, REPLAY_WINDOW_SECONDS)
      },
      requestPayout(scope, request),
      (payout) => ({ status: 201, body: payout.id })
    )
    switch (outcome._tag) {
      case "Ran":
        return { _tag: "Requested", payoutId: outcome.value.id } satisfies KeyedPayout as KeyedPayout
      case "Replay":
        return { _tag: "Requested", payoutId: outcome.response.body } satisfies KeyedPayout as KeyedPayout
      case "InFlight":
      case "Mismatch":
        return { _tag: outcome._tag } satisfies KeyedPayout as KeyedPayout
    }
  })

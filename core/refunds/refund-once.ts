import * as Effect from "effect/Effect"
import { fingerprintsOf, REPLAY_WINDOW_SECONDS } from "../idempotency/idempotency-policy.js"
import { IdempotencyStore } from "../idempotency/idempotency-store.js"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { plusSeconds } from "../shared/instant.js"
import { realNow } from "../shared/real-clock.js"
import { refundPayment, type RefundRequest } from "./refund-payment.js"

/** What a refund asked for under a key came to. */
export type KeyedRefund =
  /** Made now, or earlier under the same key with the same amount and reason. */
  | { readonly _tag: "Made"; readonly refundTrxId: string }
  /** The same refund under this key is being made right now. */
  | { readonly _tag: "InFlight" }
  /** The key was used for another amount or reason. */
  | { readonly _tag: "Mismatch" }

const amountText = (request: RefundRequest) =>
  request.amount === undefined ? "" : request.amount.kind === "string" ? request.amount.value : request.amount.text

/**
 * A refund made at most once per key, as the API's Idempotency-Key makes it: the dashboard's refund
 * form carries a key, so a double click, a reload or a second tab sending it refunds once. The key
 * is claimed and the refund made in one transaction (a failure frees the key), for 24 hours of real
 * time, in a namespace of its own beside the API's keys.
 */
export const refundOncePerKey = (scope: MerchantScope, request: RefundRequest, key: string) =>
  Effect.gen(function*() {
    const at = yield* realNow
    const asked = new TextEncoder().encode(`${amountText(request)}\n${request.reason ?? ""}`)
    const outcome = yield* (yield* IdempotencyStore).once(
      {
        scope: { merchantId: scope.merchant.id, environment: scope.environment, key: `dashboard-refund:${key}` },
        ...(yield* fingerprintsOf(`refundPayment ${request.trxId}`, asked)),
        now: at,
        expiresAt: plusSeconds(at, REPLAY_WINDOW_SECONDS)
      },
      refundPayment(scope, request),
      ({ refund }) => ({ status: 200, body: refund.refundTrxId })
    )
    switch (outcome._tag) {
      case "Ran":
        return { _tag: "Made", refundTrxId: outcome.value.refund.refundTrxId } satisfies KeyedRefund as KeyedRefund
      case "Replay":
        return { _tag: "Made", refundTrxId: outcome.response.body } satisfies KeyedRefund as KeyedRefund
      case "InFlight":
      case "Mismatch":
        return { _tag: outcome._tag } satisfies KeyedRefund as KeyedRefund
    }
  })

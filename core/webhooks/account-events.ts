import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { Dispute } from "../disputes/dispute.js"
import type { Payout } from "../payouts/payout.js"
import type { Environment } from "../shared/environment.js"
import type { MerchantId } from "../shared/ids.js"
import { type Instant, now } from "../shared/instant.js"
import { enqueueToEndpoints } from "./endpoint-copies.js"
import type { AccountEventType } from "./event-types.js"

/**
 * The object an account event is about, as the domain holds it. The edge writes it as the API
 * answers it (adapters/http/response/event-bodies.ts), so an event and a GET cannot disagree. A new
 * kind of object (a dispute) is one more member here and one more case there.
 */
export type AccountObject =
  | { readonly kind: "payout"; readonly payout: Payout }
  | { readonly kind: "dispute"; readonly dispute: Dispute }

export interface AccountEvent {
  readonly type: AccountEventType
  readonly data: AccountObject
  readonly at: Instant
}

/** Writes an account event's body to the exact text that is signed and sent on every attempt. */
export class AccountEventBody extends Context.Tag("merchant-payments/AccountEventBody")<AccountEventBody, {
  readonly render: (event: AccountEvent) => string
}>() {}

export interface AccountEventRequest {
  readonly merchantId: MerchantId
  readonly environment: Environment
  readonly type: AccountEventType
  /** The object's id (a payout's `po_...`): the events API's `object_id`, and what its events are numbered by. */
  readonly objectId: string
  readonly data: AccountObject
}

/**
 * Publishes an event about the merchant's account (a payout, a dispute, a balance): queued in the
 * webhook outbox once per enabled endpoint of the merchant and environment subscribed to `type`, and
 * from there delivered exactly as payment events are (signed with the environment's webhook secret,
 * Standard Webhooks headers, retries, paused targets, the events API). Call it inside the transaction
 * of the change it reports, after the change, so neither exists without the other. With no endpoint
 * subscribed nothing is queued. Answers the deliveries queued.
 */
export const publishAccountEvent = (request: AccountEventRequest) =>
  Effect.gen(function*() {
    const at = yield* now
    const body = (yield* AccountEventBody).render({ type: request.type, data: request.data, at })
    return yield* enqueueToEndpoints({
      merchantId: request.merchantId,
      environment: request.environment,
      event: request.type,
      body,
      signingSecret: "webhook_secret",
      objectId: request.objectId,
      nextAttemptAt: at
    })
  })

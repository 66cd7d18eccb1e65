import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import type { MerchantScope } from "../merchants/merchant-scope.js"
import { type Instant, now } from "../shared/instant.js"
import { ValidationFailed } from "../shared/validation.js"
import { Ids } from "../signing/random-ids.js"
import { webhookUrlRefusal } from "./ipn-url-rule.js"
import { WebhookOutbox } from "./webhook-outbox.js"

/** The event name of a test delivery: nothing happened to any payment or subscription. */
export const TEST_EVENT = "test"

/** Writes a test event's body for the scope's merchant and environment; the shape is the edge's (adapters/http/response/event-bodies.ts). */
export class TestEventBody extends Context.Tag("merchant-payments/TestEventBody")<TestEventBody, {
  readonly render: (scope: MerchantScope, at: Instant) => string
}>() {}

/** Longest URL accepted, as for an ipn_url. */
const MAX_URL = 2048

/**
 * Queues a signed test event to `url`, so a merchant can see their receiver answer before a real
 * payment depends on it. It goes through the outbox like every event: signed with the environment's
 * webhook secret (as payment events are), retried, listed with the merchant's events and redeliverable.
 * The URL passes the rule of a payment's ipn_url first (delivery checks it again, DNS included).
 * It is about no object, so it is its own object: its sequence is 1 and orders nothing else.
 */
export const sendTestEvent = (caller: MerchantScope, url: string) =>
  Effect.gen(function*() {
    if (url.length > MAX_URL) return yield* ValidationFailed.field("url", `The url field must not be longer than ${MAX_URL} characters.`)
    const refusal = yield* webhookUrlRefusal(url, "url")
    if (refusal !== undefined) return yield* ValidationFailed.field("url", refusal)
    const at = yield* now
    const id = yield* (yield* Ids).uuid
    return yield* (yield* WebhookOutbox).enqueue({
      id,
      merchantId: caller.merchant.id,
      environment: caller.environment,
      event: TEST_EVENT,
      url,
      body: (yield* TestEventBody).render(caller, at),
      signingSecret: "webhook_secret",
      objectId: id,
      nextAttemptAt: at
    })
  })

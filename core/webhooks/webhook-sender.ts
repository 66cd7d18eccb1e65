import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"

export interface OutgoingWebhook {
  readonly url: string
  /** The exact bytes to send: the stored body the signature covers. */
  readonly body: string
  readonly headers: Readonly<Record<string, string>>
}

/**
 * How one attempt went. Sending never fails as an effect: every outcome, including a refused target
 * or a timeout, is a result the dispatcher records as an attempt.
 */
export type SendResult =
  | { readonly _tag: "Responded"; readonly statusCode: number; readonly durationMs: number }
  | {
    readonly _tag: "Failed"
    readonly error: string
    readonly durationMs: number
    /** No retry can succeed (a target the guard refuses): the delivery fails at once. */
    readonly permanent?: boolean
  }

/** Delivers one webhook attempt to its URL. */
export class WebhookSender extends Context.Tag("merchant-payments/WebhookSender")<WebhookSender, {
  readonly send: (webhook: OutgoingWebhook) => Effect.Effect<SendResult>
}>() {}

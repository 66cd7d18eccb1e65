import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import type { StorageError } from "../shared/storage-error.js"
import type { OutboxMail, RenderedMail } from "./mail.js"

/**
 * Turns a mail's kind and facts into its subject, plain text and HTML in its language: the templates
 * live in adapters, as webhook bodies do (SubscriptionEventBody).
 */
export class MailRenderer extends Context.Tag("merchant-payments/MailRenderer")<MailRenderer, {
  readonly render: (mail: OutboxMail) => Effect.Effect<RenderedMail, StorageError>
}>() {}

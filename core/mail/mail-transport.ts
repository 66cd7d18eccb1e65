import * as Context from "effect/Context"
import type * as Effect from "effect/Effect"
import * as Schema from "effect/Schema"
import type { Environment } from "../shared/environment.js"
import type { RenderedMail } from "./mail.js"

/** The transport refused or could not take the mail; `permanent` when trying again cannot help. */
export class MailSendFailed extends Schema.TaggedError<MailSendFailed>()("MailSendFailed", {
  reason: Schema.String,
  permanent: Schema.Boolean
}) {}

/**
 * Hands a rendered mail to whatever sends it for `environment` (production: SMTP_URL; sandbox:
 * SANDBOX_SMTP_URL, never the production one).
 */
export class MailTransport extends Context.Tag("merchant-payments/MailTransport")<MailTransport, {
  readonly send: (message: RenderedMail & { readonly to: string; readonly environment: Environment }) => Effect.Effect<void, MailSendFailed>
}>() {}

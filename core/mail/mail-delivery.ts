import * as Context from "effect/Context"
import * as Effect from "effect/Effect"
import * as Option from "effect/Option"

/**
 * Where mail can go in this deployment. Production mail is sent only when a transport is configured
 * for it (SMTP_URL); without one it is not queued at all. Sandbox mail is always kept (captured) for
 * the dashboard, and additionally delivered when a sandbox transport (SANDBOX_SMTP_URL) is set.
 */
export class MailDelivery extends Context.Tag("merchant-payments/MailDelivery")<MailDelivery, {
  readonly production: boolean
  readonly sandbox: boolean
}>() {}

/** Without the service (a kit built without mail), production mail is off and sandbox mail only captured. */
export const mailDelivery = Effect.map(
  Effect.serviceOption(MailDelivery),
  Option.getOrElse(() => ({ production: false, sandbox: false }))
)

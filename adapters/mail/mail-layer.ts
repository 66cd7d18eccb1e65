import * as Layer from "effect/Layer"
import { MailDelivery } from "../../core/mail/mail-delivery.js"
import * as SmtpTransport from "./smtp-transport.js"

export interface MailSettings {
  /** SMTP_URL: production mail is sent through it; unset, production mail is off (not queued). */
  readonly smtpUrl?: string | undefined
  /** SANDBOX_SMTP_URL: sandbox mail is delivered here too (a mail catcher); unset, only captured. */
  readonly sandboxSmtpUrl?: string | undefined
  /** MAIL_FROM: the From header (default `no-reply@` the public address's host). */
  readonly from?: string | undefined
}

const defaultFrom = (baseUrl: string): string => {
  const host = URL.canParse(baseUrl) ? new URL(baseUrl).hostname : "localhost"
  return `no-reply@${host === "" ? "localhost" : host}`
}

/** Where mail may go (MailDelivery) and the SMTP transport behind it; nodemailer loads on the first send. */
export const layer = (settings: MailSettings, baseUrl: string) => {
  const productionUrl = settings.smtpUrl === "" ? undefined : settings.smtpUrl
  const sandboxUrl = settings.sandboxSmtpUrl === "" ? undefined : settings.sandboxSmtpUrl
  return Layer.merge(
    Layer.succeed(MailDelivery, { production: productionUrl !== undefined, sandbox: sandboxUrl !== undefined }),
    SmtpTransport.layer({ productionUrl, sandboxUrl, from: settings.from ?? defaultFrom(baseUrl) })
  )
}

import * as Effect from "effect/Effect"
import * as Layer from "effect/Layer"
import { MailSendFailed, MailTransport } from "../../core/mail/mail-transport.js"
import type { Environment } from "../../core/shared/environment.js"

export interface SmtpSettings {
  /** Production mail (SMTP_URL), e.g. `smtps://user:pass@smtp.example.com:465`. */
  readonly productionUrl?: string | undefined
  /** Sandbox mail (SANDBOX_SMTP_URL): a mail catcher. Never the production server. */
  readonly sandboxUrl?: string | undefined
  /** The From header (MAIL_FROM). */
  readonly from: string
  /** Connection, greeting and socket timeouts (default 30 s): the dispatcher's lease outlasts them. */
  readonly timeoutMillis?: number
}

interface Sender {
  readonly sendMail: (message: { from: string; to: string; subject: string; text: string; html: string }) => Promise<unknown>
}

/** SMTP replies 5xx refuse for good (bad address, rejected content); anything else may pass later. */
const isPermanent = (error: unknown): boolean => {
  const code = (error as { readonly responseCode?: unknown }).responseCode
  return typeof code === "number" && code >= 500 && code < 600
}

/** The server's words, without the URL (it holds the password). */
const reasonOf = (error: unknown): string => {
  const response = (error as { readonly response?: unknown }).response
  if (typeof response === "string" && response !== "") return response.slice(0, 300)
  const code = (error as { readonly code?: unknown }).code
  return typeof code === "string" ? `SMTP ${code}` : "SMTP delivery failed"
}

/**
 * MailTransport over SMTP with nodemailer, loaded on the first send (a deployment without mail never
 * loads it). One pooled transporter per environment's URL; a sandbox mail never goes to the
 * production URL, and with no URL for its environment a send fails for good.
 */
export const layer = (settings: SmtpSettings) =>
  Layer.sync(MailTransport, () => {
    const senders = new Map<Environment, Promise<Sender>>()
    const senderFor = (environment: Environment): Promise<Sender> | undefined => {
      const url = environment === "production" ? settings.productionUrl : settings.sandboxUrl
      if (url === undefined || url === "") return undefined
      let sender = senders.get(environment)
      if (sender === undefined) {
        const timeout = settings.timeoutMillis ?? 30_000
        sender = import("nodemailer").then((nodemailer) => {
          return nodemailer.createTransport({ url, connectionTimeout: timeout, greetingTimeout: timeout, socketTimeout: timeout }) as unknown as Sender
        })
        senders.set(environment, sender)
      }
      return sender
    }
    return MailTransport.of({
      send: (message) => {
        const sender = senderFor(message.environment)
        if (sender === undefined) {
          return Effect.fail(new MailSendFailed({ reason: `no SMTP server is configured for ${message.environment} mail`, permanent: true }))
        }
        return Effect.tryPromise({
          try: async () =>
            (await sender).sendMail({ from: settings.from, to: message.to, subject: message.subject, text: message.text, html: message.html }),
          catch: (error) => new MailSendFailed({ reason: reasonOf(error), permanent: isPermanent(error) })
        }).pipe(Effect.asVoid)
      }
    })
  })

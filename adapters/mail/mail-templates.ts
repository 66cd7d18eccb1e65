import type { MailContent } from "../../core/mail/mail-kind.js"
import { formatAmount } from "../http/checkout/amount-format.js"
import type { Locale } from "../http/checkout/locale.js"
import type { MailBody } from "./mail-layout.js"
import type { MailMessages } from "./mail-messages.js"

/** What a template needs besides the facts: the words, how to write numbers and dates, and where links go. */
export interface TemplateContext {
  readonly locale: Locale
  readonly messages: MailMessages
  readonly merchant: string
  /** The currency's minor digits, for amounts. */
  readonly exponentOf: (currency: string) => number
  /** The deployment's public address, without a trailing slash (dashboard links). */
  readonly baseUrl: string
}

/** An RFC 3339 instant as the language writes a date and time, in UTC (the mail cannot know the reader's zone). */
const dateTime = (iso: string, locale: Locale, withTime: boolean): string => {
  const date = new Date(iso)
  if (Number.isNaN(date.getTime())) return iso
  const written = new Intl.DateTimeFormat(locale, { dateStyle: "long", ...(withTime ? { timeStyle: "short" } : {}), timeZone: "UTC" }).format(date)
  return withTime ? `${written} UTC` : written
}

/** The body of each kind of mail, from its facts. */
export const mailBody = (content: MailContent, context: TemplateContext): MailBody => {
  const { messages: m, merchant, locale } = context
  const money = (facts: { readonly amount: string; readonly currency: string }) =>
    formatAmount(facts.amount, facts.currency, context.exponentOf(facts.currency), locale)
  const day = (iso: string) => dateTime(iso, locale, false)
  const moment = (iso: string) => dateTime(iso, locale, true)
  switch (content.kind) {
    case "invoice_issued": {
      const f = content.facts
      return {
        subject: m.invoiceIssued.subject(merchant, f.invoiceNumber ?? f.invoiceReference),
        paragraphs: [
          m.invoiceIssued.body(merchant, money(f), (f.description ?? m.yourSubscription), `${day(f.periodStart)} – ${day(f.periodEnd)}`),
          ...(f.dueAt === null ? [] : [m.invoiceIssued.due(moment(f.dueAt))])
        ],
        action: f.payUrl === null ? undefined : { label: m.invoiceIssued.pay, url: f.payUrl }
      }
    }
    case "payment_receipt": {
      const f = content.facts
      return {
        subject: m.paymentReceipt.subject(merchant, f.invoiceNumber ?? f.invoiceReference),
        paragraphs: [
          m.paymentReceipt.body(merchant, money(f), (f.description ?? m.yourSubscription), day(f.paidAt)),
          ...(f.trxId === null ? [] : [m.paymentReceipt.transaction(f.trxId)])
        ]
      }
    }
    case "dunning_reminder": {
      const f = content.facts
      return {
        subject: m.dunningReminder.subject(merchant, f.invoiceNumber ?? f.invoiceReference),
        paragraphs: [
          m.dunningReminder.body(merchant, money(f), (f.description ?? m.yourSubscription), f.reminderNumber),
          ...(f.cancelsAt === null ? [] : [m.dunningReminder.cancels(day(f.cancelsAt))])
        ],
        action: f.payUrl === null ? undefined : { label: m.dunningReminder.pay, url: f.payUrl }
      }
    }
    case "trial_ending": {
      const f = content.facts
      return { subject: m.trialEnding.subject(merchant), paragraphs: [m.trialEnding.body(merchant, (f.description ?? m.yourSubscription), day(f.trialEnd), money(f))] }
    }
    case "payment_method_failed": {
      const f = content.facts
      return {
        subject: m.paymentMethodFailed.subject(merchant, f.invoiceNumber ?? f.invoiceReference),
        paragraphs: [
          m.paymentMethodFailed.body(merchant, money(f), (f.description ?? m.yourSubscription)),
          ...(f.reason === null ? [] : [m.paymentMethodFailed.reason(f.reason)]),
          f.nextRetryAt === null ? m.paymentMethodFailed.noRetry : m.paymentMethodFailed.retry(moment(f.nextRetryAt))
        ],
        action: f.payUrl === null ? undefined : { label: m.paymentMethodFailed.pay, url: f.payUrl }
      }
    }
    case "dashboard_set_password": {
      const f = content.facts
      return {
        subject: m.setPassword.subject(merchant),
        paragraphs: [
          f.invited ? m.setPassword.invited(merchant, f.userEmail) : m.setPassword.reset(merchant, f.userEmail),
          m.setPassword.expires(moment(f.expiresAt))
        ],
        // Wiped once the mail is final: the link then points nowhere rather than at a live token.
        action: f.token === "" ? undefined : { label: m.setPassword.action, url: `${context.baseUrl}/dashboard/set-password/${f.token}` },
        after: [m.setPassword.ignore]
      }
    }
    case "dashboard_sign_in": {
      const f = content.facts
      return {
        subject: m.signIn.subject(merchant),
        paragraphs: [m.signIn.body(merchant, f.userEmail, moment(f.at), f.address)],
        action: { label: m.signIn.action, url: `${context.baseUrl}/dashboard` },
        after: [m.signIn.notYou]
      }
    }
  }
}

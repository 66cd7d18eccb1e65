/**
 * Every mail the kit sends, and the facts each one is written from. Facts are plain JSON (stored in
 * the outbox as they are given): times are RFC 3339 text (`toIsoString`), amounts the exact decimal
 * text of the amount (`"12.50"`), never a float. The templates (adapters) turn them into words.
 */
export const MAIL_KINDS = [
  "invoice_issued",
  "payment_receipt",
  "dunning_reminder",
  "trial_ending",
  "payment_method_failed",
  "dashboard_set_password",
  "dashboard_sign_in"
] as const

export type MailKind = (typeof MAIL_KINDS)[number]

/** An amount as exact decimal text with its currency. */
export interface MailAmount {
  readonly amount: string
  readonly currency: string
}

/** What every mail about a subscription's invoice names. */
export interface InvoiceFacts extends MailAmount {
  readonly subscriptionId: string
  readonly invoiceId: string
  readonly invoiceReference: string
  /** The invoice's document number (`INV-2026-000001`), what the customer's papers call it; absent in mail queued before numbers. */
  readonly invoiceNumber?: string | null
  /** The subscription's description, as the merchant wrote it (null: none; the mail says "your subscription"). */
  readonly description: string | null
}

export interface MailFacts {
  /** A renewal's invoice is open: pay it at `payUrl` before `dueAt`. */
  readonly invoice_issued: InvoiceFacts & {
    readonly periodStart: string
    readonly periodEnd: string
    readonly payUrl: string | null
    readonly dueAt: string | null
  }
  /** The invoice was paid. */
  readonly payment_receipt: InvoiceFacts & {
    readonly paidAt: string
    readonly trxId: string | null
  }
  /** The invoice is still unpaid: the n-th reminder of a dunning campaign. */
  readonly dunning_reminder: InvoiceFacts & {
    readonly reminderNumber: number
    readonly payUrl: string | null
    /** When the final action (cancel) happens if it stays unpaid; null when it stays past_due. */
    readonly cancelsAt: string | null
  }
  /** The trial ends at `trialEnd`; the first invoice follows. */
  readonly trial_ending: MailAmount & {
    readonly subscriptionId: string
    readonly description: string | null
    readonly trialEnd: string
  }
  /** Charging the saved method failed. */
  readonly payment_method_failed: InvoiceFacts & {
    /** The gateway's reason as it may be shown to the customer, if any. */
    readonly reason: string | null
    /** When the next automatic try happens; null when none will. */
    readonly nextRetryAt: string | null
    readonly payUrl: string | null
  }
  /**
   * A dashboard user's one-time set-password link. `token` is a secret: it is never logged, and it is
   * wiped from the outbox once the mail is sent or given up (the link is built by the template).
   */
  readonly dashboard_set_password: {
    readonly userEmail: string
    readonly token: string
    readonly expiresAt: string
    /** Invited (a new user) or a fresh link for an existing one. */
    readonly invited: boolean
  }
  /** Someone signed in to the dashboard as this user. */
  readonly dashboard_sign_in: {
    readonly userEmail: string
    readonly at: string
    /** The client address the sign-in came from. */
    readonly address: string
  }
}

/** A kind with its facts, as one value the compiler can narrow. */
export type MailContent = { readonly [K in MailKind]: { readonly kind: K; readonly facts: MailFacts[K] } }[MailKind]

/** Fields of a kind's facts that are secrets: wiped from the store once they are no longer needed. */
const SECRET_FACTS: { readonly [K in MailKind]?: ReadonlyArray<keyof MailFacts[K]> } = {
  dashboard_set_password: ["token"]
}

/** The facts with their secrets blanked: what the store keeps after the mail is final. */
export const withoutSecrets = (content: MailContent): MailContent => {
  const secret = SECRET_FACTS[content.kind] as ReadonlyArray<string> | undefined
  if (secret === undefined) return content
  const facts: Record<string, unknown> = { ...content.facts }
  for (const field of secret) facts[field] = ""
  return { kind: content.kind, facts } as MailContent
}

export const isMailKind = (value: string): value is MailKind => (MAIL_KINDS as ReadonlyArray<string>).includes(value)

import { describe, expect, it } from "vitest"
import type { MailContent } from "../../core/mail/mail-kind.js"
import { MAIL_KINDS } from "../../core/mail/mail-kind.js"
import { LOCALES } from "../http/checkout/locale.js"
import { layoutMail } from "./mail-layout.js"
import { mailMessagesFor } from "./mail-messages.js"
import { mailBody } from "./mail-templates.js"

// Every kind of mail in every checkout language: a subject, a plain-text and an HTML part, the
// merchant's words escaped in the HTML and kept as they are in the text.

const HOSTILE = `<script>alert("x")</script> & "quotes"`
const invoice = { subscriptionId: "sub", invoiceId: "inv", invoiceReference: "INV-7", description: HOSTILE, amount: "1234.5", currency: "JPY" }

const samples: ReadonlyArray<MailContent> = [
  { kind: "invoice_issued", facts: { ...invoice, periodStart: "2026-01-31T00:00:00Z", periodEnd: "2026-02-28T00:00:00Z", payUrl: "https://pay.example/c?a=1&b=2", dueAt: null } },
  { kind: "payment_receipt", facts: { ...invoice, paidAt: "2026-02-01T12:00:00Z", trxId: "SANDBOX_ABC" } },
  { kind: "dunning_reminder", facts: { ...invoice, reminderNumber: 2, payUrl: "https://pay.example/c", cancelsAt: "2026-02-15T00:00:00Z" } },
  { kind: "trial_ending", facts: { subscriptionId: "sub", description: HOSTILE, amount: "10", currency: "USD", trialEnd: "2026-02-01T00:00:00Z" } },
  { kind: "payment_method_failed", facts: { ...invoice, reason: "card_declined", nextRetryAt: "2026-02-03T08:00:00Z", payUrl: null } },
  { kind: "dashboard_set_password", facts: { userEmail: "a@example.com", token: "tok_123", expiresAt: "2026-02-02T00:00:00Z", invited: false } },
  { kind: "dashboard_sign_in", facts: { userEmail: "a@example.com", at: "2026-02-02T00:00:00Z", address: "203.0.113.9" } }
]

const render = (content: MailContent, locale: (typeof LOCALES)[number], sandbox = false) => {
  const messages = mailMessagesFor(locale)
  const context = { locale, messages, merchant: "Shop <&> Co", baseUrl: "https://pay.example", exponentOf: (currency: string) => (currency === "JPY" ? 0 : 2) }
  return layoutMail(mailBody(content, context), { locale, messages, merchant: "Shop <&> Co", sandbox })
}

describe("mail templates", () => {
  it("cover every kind", () => {
    expect(new Set(samples.map((sample) => sample.kind))).toEqual(new Set(MAIL_KINDS))
  })

  for (const locale of LOCALES) {
    it(`write every kind in ${locale}: subject, text and HTML, the merchant's words escaped in the HTML only`, () => {
      for (const sample of samples) {
        const mail = render(sample, locale)
        expect(mail.subject, sample.kind).toContain("Shop <&> Co")
        expect(mail.text, sample.kind).toContain("Shop <&> Co")
        expect(mail.html, sample.kind).toContain(`<html lang="${locale}" dir="${locale === "ar" ? "rtl" : "ltr"}">`)
        expect(mail.html, sample.kind).toContain("Shop &lt;&amp;&gt; Co")
        expect(mail.html, sample.kind).not.toContain("<script>")
        if (sample.kind !== "dashboard_set_password" && sample.kind !== "dashboard_sign_in") {
          expect(mail.text, sample.kind).toContain(HOSTILE)
        }
      }
    })
  }

  it("writes amounts with the currency's own minor digits, as the language writes numbers", () => {
    expect(render(samples[0]!, "en").text).toContain("1,234 JPY")
    expect(render(samples[3]!, "fr").text).toMatch(/10,00\sUSD/)
  })

  it("links to the set-password page while the token is kept, and to nothing once it is wiped", () => {
    const sample = samples[5]!
    expect(render(sample, "en").text).toContain("Set your password: https://pay.example/dashboard/set-password/tok_123")
    const wiped = { kind: "dashboard_set_password", facts: { ...sample.facts, token: "" } } as MailContent
    expect(render(wiped, "en").text).not.toContain("/dashboard/set-password/")
  })

  it("says a sandbox mail is a test, first", () => {
    expect(render(samples[1]!, "en", true).text.startsWith("Test mode: this mail is about a sandbox object")).toBe(true)
    expect(render(samples[1]!, "en", false).text).not.toContain("Test mode")
  })
})

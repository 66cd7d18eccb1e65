import type { RenderedMail } from "../../core/mail/mail.js"
import { directionOf, type Locale } from "../http/checkout/locale.js"
import { html } from "../http/pages/html.js"
import type { MailMessages } from "./mail-messages.js"

/** A mail before it is written out: the same words make its plain-text and its HTML part. */
export interface MailBody {
  readonly subject: string
  readonly paragraphs: ReadonlyArray<string>
  readonly action?: { readonly label: string; readonly url: string } | undefined
  /** Closing lines after the action (a warning, "ignore it if..."). */
  readonly after?: ReadonlyArray<string>
}

/**
 * Both parts of a mail from its body. The HTML is written only through the escaping template, so a
 * merchant's name or a subscription's description can never become markup; it is one narrow column
 * of inline styles, which is what mail clients render alike.
 */
export const layoutMail = (body: MailBody, options: {
  readonly locale: Locale
  readonly messages: MailMessages
  readonly merchant: string
  readonly sandbox: boolean
}): RenderedMail => {
  const { messages, locale } = options
  const lead = options.sandbox ? [messages.sandboxNote] : []
  const after = body.after ?? []
  const text = [
    ...lead,
    messages.greeting,
    ...body.paragraphs,
    ...(body.action === undefined ? [] : [`${body.action.label}: ${body.action.url}`]),
    ...after,
    "--",
    messages.footer(options.merchant)
  ].join("\n\n") + "\n"
  const paragraph = (line: string) => html`<p style="margin:0 0 16px">${line}</p>`
  const markup = html`<!DOCTYPE html>
<html lang="${locale}" dir="${directionOf(locale)}">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${body.subject}</title></head>
<body style="margin:0;padding:24px;background:#f6f7f9;font-family:system-ui,sans-serif;color:#1f2933;line-height:1.5">
<div style="max-width:560px;margin:0 auto;background:#ffffff;border-radius:8px;padding:24px">
${lead.map((line) => html`<p style="margin:0 0 16px;padding:8px 12px;background:#fff4d6;border-radius:4px">${line}</p>`)}
${paragraph(messages.greeting)}
${body.paragraphs.map(paragraph)}
${body.action === undefined ? null : html`<p style="margin:24px 0"><a href="${body.action.url}" style="display:inline-block;padding:10px 18px;background:#1d4ed8;color:#ffffff;border-radius:6px;text-decoration:none">${body.action.label}</a></p>`}
${after.map(paragraph)}
<p style="margin:24px 0 0;font-size:13px;color:#52606d">${messages.footer(options.merchant)}</p>
</div>
</body>
</html>
`
  return { subject: body.subject, text, html: markup.markup }
}

import { HOUSE_STYLE } from "../pages/house-style.js"
import { type Html, html, raw } from "../pages/html.js"
import { directionOf, type Locale } from "./locale.js"

/**
 * The page shell: readable on a phone, nothing loaded from elsewhere; in the customer's language and
 * its direction. No script, except the kit's own where `head` names it (an embedded checkout's end).
 */
export const page = (locale: Locale, title: string, body: Html, head: Html = html``): Html => html`<!doctype html>
<html lang="${locale}" dir="${directionOf(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<style>${raw(HOUSE_STYLE)}</style>${head}
</head>
<body><main>${body}</main></body>
</html>`

/**
 * Headers for a checkout page: the URL carries the session token, so nothing is cached or sent on as
 * a referrer; forms post only where the kit or the chosen gateway says. Nothing frames the page but
 * the origins its merchant listed (`framers`, already checked to be plain https origins); no script
 * runs but the kit's own, and only where the page has one.
 */
export const pageHeaders = (framers: ReadonlyArray<string> = [], script = false): Readonly<Record<string, string>> => ({
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  ...(framers.length === 0 ? { "x-frame-options": "DENY" } : {}),
  "content-security-policy": `default-src 'none';${script ? " script-src 'self';" : ""} style-src 'unsafe-inline'; img-src 'self' data:; ` +
    `form-action 'self' https: http:; frame-ancestors ${framers.length === 0 ? "'none'" : framers.join(" ")}; base-uri 'none'`
})

/** A page nobody may frame, with no script: every checkout page but those of a merchant that lists framing origins. */
export const PAGE_HEADERS = pageHeaders()

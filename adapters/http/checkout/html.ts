import { escapeHtml, HOUSE_STYLE } from "../pages/house-style.js"
import { directionOf, type Locale } from "./locale.js"

/** The page shell: readable on a phone, no scripts, nothing loaded from elsewhere; in the customer's language and its direction. */
export const page = (locale: Locale, title: string, body: string): string => `<!doctype html>
<html lang="${locale}" dir="${directionOf(locale)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${HOUSE_STYLE}</style>
</head>
<body><main>${body}</main></body>
</html>`

/**
 * Headers for every checkout page: the URL carries the session token, so nothing is cached or sent
 * on as a referrer; no scripts run, nothing frames the page, and forms post only where the kit or the
 * chosen gateway says.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "cache-control": "no-store",
  "referrer-policy": "no-referrer",
  "x-content-type-options": "nosniff",
  "x-frame-options": "DENY",
  "content-security-policy": "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; form-action 'self' https: http:; frame-ancestors 'none'; base-uri 'none'"
}

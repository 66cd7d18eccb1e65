/** Escapes text for HTML element content and double-quoted attributes. */
export const escapeHtml = (text: string): string =>
  text.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!)

const STYLE = `
body{font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;margin:0;background:#f4f5f7;color:#1d2330;overflow-wrap:anywhere}
main{max-width:28rem;margin:0 auto;padding:1.25rem}
.card{background:#fff;border-radius:12px;padding:1.25rem;box-shadow:0 1px 3px rgba(0,0,0,.08)}
.banner{background:#fff4cc;color:#5c4400;border:1px solid #f0d37a;border-radius:8px;padding:.6rem .8rem;margin-bottom:1rem;font-weight:600}
.amount{font-size:2rem;font-weight:700;margin:.25rem 0 .75rem}
.muted{color:#5b6475}
ul.methods{list-style:none;padding:0;margin:1rem 0}
ul.methods li{margin:.5rem 0}
button,.button{display:block;width:100%;box-sizing:border-box;padding:.85rem 1rem;border-radius:8px;border:1px solid #c9ced8;background:#fff;font-size:1rem;text-align:left;cursor:pointer;color:inherit;text-decoration:none}
button.primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff;text-align:center}
button.link{border:none;background:none;color:#5b6475;text-align:center;text-decoration:underline}
form{margin:0}
.sandbox-outcome{margin:.5rem 0}
.sandbox-pay button,button.sandbox-pay{background:#1d4ed8;border-color:#1d4ed8;color:#fff;text-align:center}
a.back{display:block;text-align:center;color:#5b6475;margin-top:.75rem}
`

/** The page shell: readable on a phone, no scripts, nothing loaded from elsewhere. */
export const page = (title: string, body: string): string => `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
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

/** A base no request can name: what a path is resolved against, and how leaving it is seen. */
const ORIGIN = "http://dashboard.invalid"

/**
 * Where the dashboard may send a visitor it was asked to send somewhere (`next` after sign-in, a
 * form's `return_to`): the path resolved as a browser will resolve it (dot segments, percent-encoded
 * ones too, a backslash as a slash), so what is checked is where the browser goes; then it must be
 * `home` or under it. Written back in the WHATWG serialization (the URL rule: non-ASCII
 * percent-encoded), so it is always a Location Node can send. Undefined for anywhere else, a
 * `//host` or an encoded slash (one segment here, two to a proxy) included.
 */
export const dashboardTarget = (home: string, asked: string): { readonly path: string; readonly search: string } | undefined => {
  if (asked.length > 2000 || !asked.startsWith("/")) return undefined
  let url: URL
  try {
    url = new URL(asked, ORIGIN)
  } catch {
    return undefined
  }
  if (url.origin !== ORIGIN || /%2f|%5c/i.test(url.pathname)) return undefined
  return url.pathname === home || url.pathname.startsWith(`${home}/`) ? { path: url.pathname, search: url.search } : undefined
}

/**
 * A Location as the URL rule writes it: an absolute http(s) URL or a path in the WHATWG
 * serialization (non-ASCII percent-encoded), which a browser reads as the same address; anything
 * else is left as it is.
 */
export const locationOf = (target: string): string => {
  try {
    if (/^https?:\/\//i.test(target)) return new URL(target).href
    if (!target.startsWith("/") || target.startsWith("//") || target.startsWith("/\\")) return target
    const url = new URL(target, ORIGIN)
    return url.origin === ORIGIN ? `${url.pathname}${url.search}${url.hash}` : target
  } catch {
    return target
  }
}

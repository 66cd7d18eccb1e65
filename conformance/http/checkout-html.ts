import { expect } from "vitest"
import { type HttpResult, rawRequest, type Target } from "./signing.js"

/**
 * The hosted checkout as a browser without JavaScript sees it: pages fetched by GET, plain HTML forms
 * read and posted back as application/x-www-form-urlencoded. No redirect is followed.
 */

export interface HtmlForm {
  readonly action: string
  readonly method: string
  /** Named inputs (hidden fields) with their decoded values. */
  readonly fields: Readonly<Record<string, string>>
  /** The data-testid values inside the form (its buttons). */
  readonly testIds: ReadonlyArray<string>
}

const ENTITIES: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'", "#39": "'", "#x27": "'" }

export const decodeEntities = (text: string): string =>
  text.replace(/&(#x?[0-9a-f]+|[a-z]+);/gi, (entity, name: string) => {
    const known = ENTITIES[name.toLowerCase()]
    if (known !== undefined) return known
    if (name.startsWith("#x") || name.startsWith("#X")) return String.fromCodePoint(parseInt(name.slice(2), 16))
    if (name.startsWith("#")) return String.fromCodePoint(Number(name.slice(1)))
    return entity
  })

const attributes = (text: string): Record<string, string> =>
  Object.fromEntries([...text.matchAll(/([a-zA-Z_:][-a-zA-Z0-9_:.]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)]
    .map(([, name, double, single]) => [name!.toLowerCase(), decodeEntities(double ?? single ?? "")]))

export const formsOf = (html: string): ReadonlyArray<HtmlForm> =>
  [...html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form>/gi)].map(([, head, inner]) => {
    const attrs = attributes(head!)
    const fields: Record<string, string> = {}
    for (const [, input] of inner!.matchAll(/<input\b([^>]*)>/gi)) {
      const a = attributes(input!)
      if (a["name"] !== undefined) fields[a["name"]] = a["value"] ?? ""
    }
    return {
      action: attrs["action"] ?? "",
      method: (attrs["method"] ?? "get").toLowerCase(),
      fields,
      testIds: [...inner!.matchAll(/data-testid\s*=\s*"([^"]*)"/g)].map(([, id]) => decodeEntities(id!))
    }
  })

/** The one form holding the element with this data-testid. */
export const formWith = (html: string, testId: string): HtmlForm => {
  const forms = formsOf(html).filter((form) => form.testIds.includes(testId))
  if (forms.length !== 1) throw new Error(`expected one form with data-testid="${testId}", found ${forms.length} in:\n${html}`)
  return forms[0]!
}

/** Codes of the gateways a checkout page offers (`data-testid="gateway-<code>"`). */
export const offeredCodes = (html: string): ReadonlyArray<string> =>
  [...html.matchAll(/data-testid="gateway-([^"]+)"/g)].map(([, code]) => decodeEntities(code!))

/**
 * A checkout address as this suite reaches it: the part from `/checkout/` on, under the target's base
 * URL. The host's public address (in links it issues) may differ from the one the suite talks to.
 */
export const checkoutPath = (url: string, page = "http://checkout.invalid/"): string => {
  const resolved = new URL(url, page)
  const at = resolved.pathname.indexOf("/checkout/")
  if (at < 0) throw new Error(`not a checkout address: ${url}`)
  return resolved.pathname.slice(at) + resolved.search
}

export const getPage = (target: Target, url: string): Promise<HttpResult> =>
  rawRequest(target, { method: "GET", path: checkoutPath(url), headers: { accept: "text/html" } })

/** Posts a form as a browser would, with some fields changed (a forgery) when asked. */
export const submit = (target: Target, form: HtmlForm, pageUrl: string, changes: Readonly<Record<string, string>> = {}): Promise<HttpResult> => {
  expect(form.method).toBe("post")
  const body = new URLSearchParams({ ...form.fields, ...changes }).toString()
  return rawRequest(target, {
    method: "POST",
    path: checkoutPath(form.action, pageUrl),
    headers: { accept: "text/html", "content-type": "application/x-www-form-urlencoded" },
    body
  })
}

/** An HTML page with the given status. */
export const expectHtml = (response: HttpResult, status: number): string => {
  expect(response.status, response.text.slice(0, 2000)).toBe(status)
  expect(response.headers["content-type"] ?? "").toMatch(/^text\/html\b/)
  return response.text
}

/** A 303 to exactly `location`. */
export const expectSeeOther = (response: HttpResult, location: string): void => {
  expect(response.status, response.text.slice(0, 2000)).toBe(303)
  expect(response.headers["location"]).toBe(location)
}

/** Opens the session's page and picks the gateway with `code`: the gateway's own page (the sandbox form). */
export const openGateway = async (target: Target, paymentUrl: string, code: string): Promise<{ readonly html: string; readonly url: string }> => {
  const page = expectHtml(await getPage(target, paymentUrl), 200)
  const choice = formWith(page, `gateway-${code}`)
  const url = new URL(choice.action, paymentUrl).toString()
  return { html: expectHtml(await submit(target, choice, paymentUrl), 200), url }
}

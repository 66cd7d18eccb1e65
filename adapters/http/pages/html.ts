// The one way a page writes HTML. Markup is written only as the literal parts of an html`...`
// template; everything interpolated is escaped unless it is already Html. So a value that reaches a
// page from a merchant, a customer or a webhook receiver can never become markup, whoever forgot what.

const MADE_HERE: unique symbol = Symbol("Html")

/**
 * Markup that is safe to send: made only by `html` (escaping what it is given) or `raw` (a trusted
 * constant). A structurally equal object is not one: the class has a private field.
 */
export class Html {
  readonly #markup: string
  constructor(key: typeof MADE_HERE, markup: string) {
    if (key !== MADE_HERE) throw new TypeError("Html is made by html`...` or raw(...) only")
    this.#markup = markup
  }
  /** The markup as text, for the response that sends it (and for tests). */
  get markup(): string {
    return this.#markup
  }
  /** Never turned into text by accident (a plain `${fragment}`): that would lose the brand silently. */
  [Symbol.toPrimitive](): never {
    throw new TypeError("Html is written into an html`...` template or sent as a page, never turned into a string")
  }
}

/**
 * What a template takes: text and numbers (escaped), Html (as is), lists of these (in order, nothing
 * between), and `null`, `undefined` or `false` (nothing, so `condition && html\`...\`` reads naturally).
 */
export type Interpolation = Html | string | number | bigint | false | null | undefined | ReadonlyArray<Interpolation>

const ENTITIES: Readonly<Record<string, string>> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;" }

/**
 * Escapes text for element content and quoted attribute values (every attribute in a template is
 * quoted: an architecture test holds it). The whole tree's one escaper.
 */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (character) => ENTITIES[character]!)

const write = (value: Interpolation): string => {
  if (value instanceof Html) return value.markup
  if (value === null || value === undefined || value === false) return ""
  if (Array.isArray(value)) return value.map(write).join("")
  if (typeof value === "string") return escapeHtml(value)
  if (typeof value === "number" || typeof value === "bigint") return escapeHtml(String(value))
  // Only reachable past the types (`true`, an object): refusing beats writing "[object Object]" or "true".
  throw new TypeError(`an html template cannot write a ${typeof value}`)
}

/** The page template: its literal parts are markup, everything interpolated is escaped unless it is Html. */
export const html = (parts: TemplateStringsArray, ...values: ReadonlyArray<Interpolation>): Html => {
  let markup = parts[0]!
  for (let index = 0; index < values.length; index++) markup += write(values[index]!) + parts[index + 1]!
  return new Html(MADE_HERE, markup)
}

/**
 * A trusted constant written as markup unescaped: the kit's own stylesheet and a few fixed snippets.
 * Never a value that came from a request, the store or a setting: grep for `raw(` to review them all.
 */
export const raw = (trusted: string): Html => new Html(MADE_HERE, trusted)

/** Several fragments with a separator between them (text separators are escaped like any text). */
export const joinHtml = (fragments: ReadonlyArray<Html>, separator: Html | string): Html =>
  html`${fragments.flatMap((fragment, index) => (index === 0 ? [fragment] : [separator, fragment]))}`

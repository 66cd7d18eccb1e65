/**
 * The checkout page's languages and how a request picks one: a `locale` query parameter wins (a link
 * the merchant built for its customer), then the browser's Accept-Language by its q-values, each tag matched by
 * its primary language (`fr-CA` is French); English when nothing matches.
 */
export const LOCALES = ["en", "fr", "ar"] as const
export type Locale = (typeof LOCALES)[number]

export const DEFAULT_LOCALE: Locale = "en"

const RIGHT_TO_LEFT: ReadonlySet<Locale> = new Set(["ar"])

/** The writing direction for the page's `dir`. */
export const directionOf = (locale: Locale): "ltr" | "rtl" => (RIGHT_TO_LEFT.has(locale) ? "rtl" : "ltr")

/** One of ours for a language tag (`fr`, `FR-ca`, `ar-EG`), or undefined. */
export const localeOfTag = (tag: string): Locale | undefined => {
  const primary = tag.trim().toLowerCase().split(/[-_]/)[0] ?? ""
  return (LOCALES as ReadonlyArray<string>).includes(primary) ? primary as Locale : undefined
}

/** Accept-Language's tags, best first: q-values honoured, q=0 excluded, order kept among equals. */
const rankedTags = (header: string): ReadonlyArray<string> =>
  header.split(",").slice(0, 32).map((item, index) => {
    const [tag = "", ...params] = item.split(";")
    const q = params.map((param) => /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param)).find((match) => match !== null)
    return { tag: tag.trim(), quality: q === undefined || q === null ? 1 : Number(q[1]), index }
  }).filter((item) => item.tag !== "" && item.tag !== "*" && item.quality > 0)
    .sort((a, b) => b.quality - a.quality || a.index - b.index)
    .map((item) => item.tag)

/** The page's language for a request: the query's `locale` when it is one of ours, else the best of Accept-Language. */
export const negotiateLocale = (queryLocale: string | null | undefined, acceptLanguage: string | undefined): Locale => {
  const asked = queryLocale === null || queryLocale === undefined ? undefined : localeOfTag(queryLocale)
  if (asked !== undefined) return asked
  for (const tag of rankedTags(acceptLanguage ?? "")) {
    const locale = localeOfTag(tag)
    if (locale !== undefined) return locale
  }
  return DEFAULT_LOCALE
}

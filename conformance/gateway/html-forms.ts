/**
 * Just enough HTML reading to submit a plugin's rendered form the way a browser would, without a
 * DOM dependency: forms, their hidden inputs and their submit buttons, with entities decoded.
 * Plugins render simple trusted fragments, so this is a reader for those, not a general parser.
 */

export interface RenderedForm {
  readonly action: string | undefined
  readonly method: string
  /** The hidden inputs by name. */
  readonly hidden: Readonly<Record<string, string>>
  /** The submit buttons' attributes. */
  readonly buttons: ReadonlyArray<Readonly<Record<string, string>>>
}

/** What pressing one button sends: the form's hidden fields plus that button's own name and value. */
export interface FormSubmission {
  readonly action: string | undefined
  readonly method: string
  readonly fields: Readonly<Record<string, string>>
}

const NAMED: Readonly<Record<string, string>> = { amp: "&", lt: "<", gt: ">", quot: "\"", apos: "'" }

export const decodeEntities = (text: string): string =>
  text.replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, entity: string) => {
    if (entity[0] === "#") {
      const code = entity[1] === "x" || entity[1] === "X" ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10)
      return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole
    }
    return NAMED[entity.toLowerCase()] ?? whole
  })

const ATTRIBUTE = /([^\s"'>/=]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'=<>`]+)))?/g

export const attributesOf = (tagBody: string): Readonly<Record<string, string>> => {
  const attributes: Record<string, string> = {}
  for (const match of tagBody.matchAll(ATTRIBUTE)) {
    const name = match[1]!.toLowerCase()
    if (!(name in attributes)) attributes[name] = decodeEntities(match[2] ?? match[3] ?? match[4] ?? "")
  }
  return attributes
}

const tags = (html: string, name: string) => Array.from(html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, "gi")), (m) => attributesOf(m[1]!))

export const formsIn = (html: string): ReadonlyArray<RenderedForm> =>
  Array.from(html.matchAll(/<form\b([^>]*)>([\s\S]*?)<\/form\s*>/gi), (match) => {
    const form = attributesOf(match[1]!)
    const inner = match[2]!
    const hidden: Record<string, string> = {}
    for (const input of tags(inner, "input")) {
      if ((input["type"] ?? "").toLowerCase() === "hidden" && input["name"] !== undefined) hidden[input["name"]] = input["value"] ?? ""
    }
    return {
      action: form["action"],
      method: (form["method"] ?? "get").toLowerCase(),
      hidden,
      buttons: tags(inner, "button").filter((button) => (button["type"] ?? "submit").toLowerCase() === "submit")
    }
  })

/** Pressing the one submit button that carries this data-testid; undefined unless exactly one does. */
export const pressButton = (html: string, testId: string): FormSubmission | undefined => {
  const pressed = formsIn(html).flatMap((form) =>
    form.buttons.filter((button) => button["data-testid"] === testId).map((button) => ({ form, button }))
  )
  if (pressed.length !== 1) return undefined
  const { button, form } = pressed[0]!
  const named = button["name"] === undefined ? {} : { [button["name"]]: button["value"] ?? "" }
  return { action: form.action, method: form.method, fields: { ...form.hidden, ...named } }
}

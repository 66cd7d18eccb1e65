import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { pageMarkupViolations, treeMarkupViolations } from "./page-markup.js"

const root = fileURLToPath(new URL("..", import.meta.url))
const PAGE = "adapters/http/dashboard/example-page.ts"

const rulesOf = (source: string, file = PAGE) => pageMarkupViolations(file, source).map((violation) => violation.rule.split(":")[0])

describe("pages are safe by construction", () => {
  it("no module builds HTML other than with the html template, and pages are sent only as Html", () => {
    expect(treeMarkupViolations(root)).toEqual([])
  })

  it("refuses markup in strings and untagged templates, escapeHtml, joined markup, unquoted attributes, computed raw and other senders", () => {
    expect(rulesOf(`const a = "<p>" + name + "</p>"`)).toEqual(["markup in a string", "markup in a string"])
    expect(rulesOf("const a = `<td>${name}</td>`")).toEqual(["markup in a string"])
    expect(rulesOf("const a = `<td>${html`<b>${name}</b>`}</td>`")).toEqual(["markup in a string"])
    expect(rulesOf("const a = cond ? ` aria-current=\"page\"` : ``")).toEqual(["markup in a string"])
    expect(rulesOf("const a = html`<p>${escapeHtml(name)}</p>`")).toEqual(["escapeHtml outside the template"])
    expect(rulesOf("const a = html`<ul>${items.map((item) => html`<li>${item}</li>`).join(\"\")}</ul>`")).toEqual(["markup joined as text"])
    expect(rulesOf("const a = html`<input value=${name}>`")).toEqual(["an unquoted attribute value"])
    expect(rulesOf("const a = raw(`<b>${name}</b>`)")).toEqual(["raw() of a computed value"])
    expect(rulesOf(`const a = wholeText(page, { contentType: "text/html; charset=utf-8" })`, "adapters/http/routes/any-routes.ts")).toEqual(["a page sent other than by htmlResponse, which takes only Html"])
    // escapeHtml is refused anywhere but the template module, page module or not.
    expect(rulesOf(`export const escapeHtml = (text: string) => text`, "adapters/gateways/other/form.ts")).toEqual(["escapeHtml outside the template"])
  })

  it("leaves the template's own forms, text, comments and regular expressions alone", () => {
    expect(rulesOf([
      "// a <b>comment</b> and /* <i>another</i> */",
      "const pattern = /<[^>]*>/g",
      "const a = html`<p class=\"x\" title=\"${name}\">${name}</p>${items.map((item) => html`<li>${item}</li>`)}`",
      "const b = raw(\"<style>a>b{}</style>\")",
      "const c = `Payment ${reference}`",
      "const d = items.join(\", \")",
      "import { html } from \"../pages/html.js\""
    ].join("\n"))).toEqual([])
    // Outside the page modules markup in strings is not a page's concern (an e-mail, a test fixture).
    expect(rulesOf("const a = `<td>${name}</td>`", "adapters/webhook-http/any.ts")).toEqual([])
  })
})

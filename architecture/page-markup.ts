import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative, sep } from "node:path"
import ts from "typescript"
import { isTestOnly } from "./dependency-rule.js"

/**
 * Pages are safe by construction: markup is written only in the literal parts of an html`...`
 * template (adapters/http/pages/html.ts), which escapes everything interpolated. These rules find
 * any other way a page module could build HTML, read from the syntax tree (not by grepping text), so
 * a comment or a regular expression does not trip them and a string split over lines does not hide.
 */

/** The modules that write pages: the page rooms, the page routes, and the two other pages the kit answers. */
export const isPageModule = (file: string): boolean =>
  !isTestOnly(file) && file.endsWith(".ts") && (
    /^adapters\/http\/(dashboard|checkout|pages)\//.test(file) ||
    /^adapters\/http\/routes\/dashboard-[^/]*\.ts$/.test(file) ||
    file === "adapters/http/openapi/reference-page.ts" ||
    file === "adapters/gateways/sandbox/sandbox-form.ts"
  )

/** The template module itself, where the one escaper and the one page sender live. */
const TEMPLATE = "adapters/http/pages/html.ts"
const SENDER = "adapters/http/pages/html-response.ts"

/** Text that is markup: a tag (or doctype, comment) opening or closing, or an attribute fragment (` aria-current="page"`). */
const MARKUP = /<[a-zA-Z!/]|^\s+[a-z-]+="[^"]*"\s*$/

export interface Violation {
  readonly file: string
  readonly line: number
  readonly rule: string
  readonly text: string
}

const isHtmlTagged = (node: ts.Node): boolean =>
  ts.isTaggedTemplateExpression(node.parent) && ts.isIdentifier(node.parent.tag) && node.parent.tag.text === "html"

const isRawArgument = (node: ts.Node): boolean =>
  ts.isCallExpression(node.parent) && ts.isIdentifier(node.parent.expression) && node.parent.expression.text === "raw"

/** The literal text of a template, its substitutions left out. */
const templateText = (node: ts.TemplateExpression | ts.NoSubstitutionTemplateLiteral): ReadonlyArray<string> =>
  ts.isNoSubstitutionTemplateLiteral(node) ? [node.text] : [node.head.text, ...node.templateSpans.map((span) => span.literal.text)]

/** Every way `source` (the module `file`, relative to the repository) builds HTML other than the template. */
export const pageMarkupViolations = (file: string, source: string): ReadonlyArray<Violation> => {
  const tree = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS)
  const found: Array<Violation> = []
  const report = (node: ts.Node, rule: string) =>
    found.push({ file, line: tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1, rule, text: node.getText(tree).slice(0, 80) })
  const page = isPageModule(file) && file !== TEMPLATE
  const visit = (node: ts.Node): void => {
    if (ts.isIdentifier(node) && node.text === "escapeHtml" && file !== TEMPLATE) {
      report(node, "escapeHtml outside the template: interpolate into html`...`, which escapes")
    }
    if (ts.isStringLiteralLike(node) && node.text.includes("text/html; charset") && file !== SENDER) {
      report(node, "a page sent other than by htmlResponse, which takes only Html")
    }
    if (page) {
      if ((ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) &&
        !isHtmlTagged(node) && !isRawArgument(node) && !ts.isImportDeclaration(node.parent) && !ts.isExportDeclaration(node.parent) &&
        (ts.isStringLiteral(node) ? [node.text] : templateText(node)).some((part) => MARKUP.test(part))) {
        report(node, "markup in a string: write it in html`...`")
      }
      if (ts.isTemplateExpression(node) && isHtmlTagged(node) &&
        [node.head.text, ...node.templateSpans.slice(0, -1).map((span) => span.literal.text)].some((part) => /=\s*$/.test(part))) {
        report(node, "an unquoted attribute value: quote it, so the escaped value cannot end the attribute")
      }
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === "raw" &&
        !node.arguments.every((argument) => ts.isStringLiteral(argument) || ts.isNoSubstitutionTemplateLiteral(argument) || ts.isIdentifier(argument))) {
        report(node, "raw() of a computed value: raw is for constants only")
      }
      if (ts.isCallExpression(node) && ts.isPropertyAccessExpression(node.expression) && node.expression.name.text === "join" &&
        node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0]!) && node.arguments[0].text === "") {
        report(node, "markup joined as text: html`...` takes an array of Html as it is")
      }
    }
    ts.forEachChild(node, visit)
  }
  visit(tree)
  return found
}

const filesUnder = (root: string, directory: string): ReadonlyArray<string> => {
  const absolute = join(root, directory)
  return readdirSync(absolute).flatMap((name) => {
    const path = join(absolute, name)
    if (name === "node_modules" || name === "dist") return []
    return statSync(path).isDirectory() ? filesUnder(root, relative(root, path)) : [relative(root, path).split(sep).join("/")]
  })
}

/** The rules over every production module of adapters/ and hosts/ (the page rules over the page modules). */
export const treeMarkupViolations = (root: string): ReadonlyArray<Violation> =>
  ["adapters", "hosts"].flatMap((directory) => filesUnder(root, directory))
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".d.ts") && !isTestOnly(file))
    .flatMap((file) => pageMarkupViolations(file, readFileSync(join(root, file), "utf8")))

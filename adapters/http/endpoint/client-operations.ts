import * as Option from "effect/Option"
import * as SchemaAST from "effect/SchemaAST"
import type { BodyContract } from "../contract/read-body.js"
import type { Endpoint } from "./endpoint.js"

/** Whether a schema node is the contract's Money: an exact amount written as a JSON number. */
const isMoney = (ast: SchemaAST.AST): boolean =>
  ast._tag === "Transformation" && ast.to._tag === "Declaration" &&
  Option.exists(SchemaAST.getIdentifierAnnotation(ast.to), (identifier) => identifier === "ExactNumber")

/** The property names, at any depth, whose value is money. */
const moneyFieldsOf = (ast: SchemaAST.AST, found: Set<string>, seen: Set<SchemaAST.AST> = new Set()): Set<string> => {
  if (seen.has(ast)) return found
  seen.add(ast)
  switch (ast._tag) {
    case "TypeLiteral":
      for (const property of ast.propertySignatures) {
        if (isMoney(property.type) || (property.type._tag === "Union" && property.type.types.some(isMoney))) found.add(String(property.name))
        moneyFieldsOf(property.type, found, seen)
      }
      break
    case "Union":
      for (const member of ast.types) moneyFieldsOf(member, found, seen)
      break
    case "TupleType":
      for (const element of ast.elements) moneyFieldsOf(element.type, found, seen)
      for (const rest of ast.rest) moneyFieldsOf(rest.type, found, seen)
      break
    case "Refinement":
      moneyFieldsOf(ast.from, found, seen)
      break
    case "Suspend":
      moneyFieldsOf(ast.f(), found, seen)
      break
    case "Transformation":
      if (!isMoney(ast)) moneyFieldsOf(ast.to, found, seen)
      break
  }
  return found
}

const requestMoneyOf = (body: BodyContract | undefined): ReadonlyArray<string> =>
  body === undefined ? [] : Object.entries(body.fields).filter(([, rule]) => rule.money).map(([name]) => name)

const list = (names: Iterable<string>) => `[${[...new Set(names)].sort().map((name) => JSON.stringify(name)).join(", ")}]`

/** The response fields of `endpoints` that carry money, at any depth, read from their success schemas. */
export const responseMoneyFields = (endpoints: ReadonlyArray<Endpoint>): ReadonlySet<string> => {
  const found = new Set<string>()
  for (const endpoint of endpoints) moneyFieldsOf(endpoint.success.schema.ast, found)
  return found
}

/**
 * The client's operation table as TypeScript source: each merchant endpoint's method and path
 * template, and the fields that carry money in requests (top level) and responses (any depth). The
 * client is lean (no Effect at run time), so it reads this written table, never the declarations.
 */
export const renderClientOperations = (endpoints: ReadonlyArray<Endpoint>): string => {
  const responseMoney = responseMoneyFields(endpoints)
  const rows = endpoints.map((endpoint) =>
    `  ${endpoint.operationId}: { method: "${endpoint.method.toUpperCase()}", path: "${endpoint.path}" }`)
  return [
    "// Written by `npm run client:operations` from the endpoint declarations (adapters/http/merchant-api/merchant-api.ts).",
    "// Do not edit: client/operations.test.ts fails when this file differs from what the declarations give.",
    "",
    "/** Every merchant API operation: its method and path template (`{name}` for a path parameter). */",
    "export const OPERATIONS = {",
    rows.join(",\n"),
    "} as const",
    "",
    "/** Request fields that carry money, at the top level of a body: sent as JSON numbers from decimal strings. */",
    `export const REQUEST_MONEY_FIELDS: ReadonlyArray<string> = ${list(endpoints.flatMap((endpoint) => requestMoneyOf(endpoint.body)))}`,
    "",
    "/** Response fields that carry money, at any depth: read back as their exact text. */",
    `export const RESPONSE_MONEY_FIELDS: ReadonlyArray<string> = ${list(responseMoney)}`,
    ""
  ].join("\n")
}

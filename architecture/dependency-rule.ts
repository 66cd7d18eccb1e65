import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"

/**
 * The hexagon's rules, checked from source text: `core/` depends on nothing outside itself but
 * `effect` (and `node:crypto` inside `core/signing`), and reaches no Node global either; `adapters/`
 * never depends on `hosts/` or on the suites in `conformance/`; no production file imports itself
 * round a circle. Test files may also use the test tools, and test-only code (`*.test.ts`,
 * `testing/` folders) may reach further out.
 */
export interface Violation {
  readonly file: string
  readonly specifier: string
}

const IMPORT_PATTERN = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/g

// standardwebhooks: the reference library core's webhook signatures are checked against, in tests only.
const TEST_TOOLS = new Set(["vitest", "@effect/vitest", "fast-check", "standardwebhooks"])

export const importsOf = (source: string): ReadonlyArray<string> =>
  Array.from(source.matchAll(IMPORT_PATTERN), (match) => match[1] ?? match[2] ?? "").filter((s) => s !== "")

const packageOf = (specifier: string): string => {
  const parts = specifier.split("/")
  return specifier.startsWith("@") ? parts.slice(0, 2).join("/") : parts[0]!
}

/** Whether `file` (a path relative to the repo root, with `/`) may import `specifier`. */
export const isAllowed = (file: string, specifier: string): boolean => {
  if (specifier.startsWith(".")) {
    const target = join(dirname(file), specifier).split(sep).join("/")
    return target.startsWith("core/")
  }
  if (specifier === "node:crypto" || specifier === "crypto") return file.startsWith("core/signing/")
  const pkg = packageOf(specifier)
  if (pkg === "effect") return true
  return file.endsWith(".test.ts") && TEST_TOOLS.has(pkg)
}

/** Test-only code: never compiled into dist, so the production rules do not bind it. */
export const isTestOnly = (file: string): boolean => file.endsWith(".test.ts") || file.split("/").includes("testing")

/** Whether a production file in `adapters/` may import `specifier`: not the hosts, not the suites. */
export const isAllowedInAdapters = (file: string, specifier: string): boolean => {
  if (isTestOnly(file)) return true
  if (!specifier.startsWith(".")) return !TEST_TOOLS.has(packageOf(specifier))
  const target = join(dirname(file), specifier).split(sep).join("/")
  return !target.startsWith("hosts/") && !target.startsWith("conformance/")
}

/**
 * Hosts point one way: the kit's assembly (`hosts/kit-layer.ts`) and the embedding facade
 * (`hosts/embedding/`) are what every host stands on, so they reach no host built on them
 * (`standalone/`, `embedded/`); no production file in `hosts/` reaches the client (a merchant's
 * package, not the kit's), the suites or the end-to-end tests.
 */
export const isAllowedInHosts = (file: string, specifier: string): boolean => {
  if (isTestOnly(file) || !specifier.startsWith(".")) return isTestOnly(file) || !TEST_TOOLS.has(packageOf(specifier))
  const target = join(dirname(file), specifier).split(sep).join("/")
  const outside = ["client/", "conformance/", "end-to-end/"]
  if (outside.some((folder) => target.startsWith(folder))) return false
  const foundation = file === "hosts/kit-layer.ts" || file.startsWith("hosts/embedding/")
  return !(foundation && (target.startsWith("hosts/standalone/") || target.startsWith("hosts/embedded/")))
}

/**
 * Routes answer through use cases: a route file (`*-routes.ts` under adapters/http, in whichever
 * audience's folder it lives, and every file of checkout's room, whose steps are split from its
 * declarations) names no storage port of core/storage.ts as a value, so no rule over
 * stored records is written at the edge. StoreHealth alone is allowed: whether the store answers is
 * all the health route says.
 */
const ROUTE_MAY_USE = new Set(["StoreHealth"])

/** Named by what it is rather than where: the page rooms (dashboard, checkout) keep theirs beside their views. */
export const isRouteFile = (file: string): boolean => file.startsWith("adapters/http/") && file.endsWith("-routes.ts") && !isTestOnly(file)

const storagePorts = (root: string): ReadonlyMap<string, string> => {
  const source = readFileSync(resolve(root, "core/storage.ts"), "utf8")
  const ports = new Map<string, string>()
  for (const match of source.matchAll(/import type \{ (\w+) \} from "\.\/([^"]+)"/g)) {
    if (!ROUTE_MAY_USE.has(match[1]!)) ports.set(match[1]!, `core/${match[2]!.replace(/\.js$/, ".ts")}`)
  }
  return ports
}

/** The names a source imports as values from each relative module (type-only names left out). */
export const valueImportsOf = (file: string, source: string): ReadonlyArray<{ readonly module: string; readonly name: string }> =>
  Array.from(source.matchAll(/^import\s+(type\s+)?\{([^}]*)\}\s+from\s+"(\.[^"]+)"/gm)).flatMap((match) =>
    match[1] !== undefined ? [] : match[2]!.split(",").map((name) => name.trim()).filter((name) => name !== "" && !name.startsWith("type "))
      .map((name) => ({ module: join(dirname(file), match[3]!).split(sep).join("/").replace(/\.js$/, ".ts"), name: name.split(/\s+as\s+/)[0]! })))

export const routeStorageViolations = (root: string): ReadonlyArray<Violation> => {
  const ports = storagePorts(root)
  return scan(root, "adapters/http", (file, source) =>
    !(isRouteFile(file) || file.startsWith("adapters/http/checkout/")) || isTestOnly(file) ? [] : valueImportsOf(file, source).filter(({ module, name }) => ports.get(name) === module).map(({ name }) => name))
}

/** Node globals that would tie core to a runtime; `core/signing` wraps node:crypto and may use them. */
const NODE_GLOBALS = /\b(Buffer|process|require|__dirname|__filename|setImmediate)\b(?=\s*[.([])/g

const withoutComments = (source: string): string => source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"'`])\/\/.*$/gm, "$1")

export const nodeGlobalsIn = (file: string, source: string): ReadonlyArray<string> =>
  file.startsWith("core/signing/") || isTestOnly(file) ? [] : Array.from(withoutComments(source).matchAll(NODE_GLOBALS), (m) => m[1]!)

const sourceFiles = (directory: string): ReadonlyArray<string> =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

/** What `find` reports in each source file under `folder`, as violations of that file. */
const scan = (root: string, folder: string, find: (file: string, source: string) => ReadonlyArray<string>): ReadonlyArray<Violation> =>
  sourceFiles(resolve(root, folder)).flatMap((path) => {
    const file = relative(root, path).split(sep).join("/")
    return find(file, readFileSync(path, "utf8")).map((specifier) => ({ file, specifier }))
  })

const importsRefused = (allowed: (file: string, specifier: string) => boolean) => (file: string, source: string) =>
  importsOf(source).filter((specifier) => !allowed(file, specifier))

export const coreViolations = (root: string): ReadonlyArray<Violation> => scan(root, "core", importsRefused(isAllowed))

export const adapterViolations = (root: string): ReadonlyArray<Violation> => scan(root, "adapters", importsRefused(isAllowedInAdapters))

export const hostViolations = (root: string): ReadonlyArray<Violation> => scan(root, "hosts", importsRefused(isAllowedInHosts))

export const coreGlobalViolations = (root: string): ReadonlyArray<Violation> => scan(root, "core", nodeGlobalsIn)

/** An HTTP method written as a string, in any quotes: code that decides by it, or builds a request line. */
const HTTP_METHOD_LITERAL = /(["'`])(GET|HEAD|POST|PUT|PATCH|DELETE|OPTIONS)\b[^"'`\n]*\1/g

/**
 * HTTP methods core code names. Core is reached through the HTTP edge, the dashboard and the Effect
 * API alike, so a method there is the edge's knowledge in the wrong room; `core/signing` is the
 * exception, since the contract's request signature covers the method. Comments may cite a route.
 */
export const httpMethodsIn = (file: string, source: string): ReadonlyArray<string> =>
  file.startsWith("core/signing/") || isTestOnly(file) ? [] : Array.from(withoutComments(source).matchAll(HTTP_METHOD_LITERAL), (m) => m[0])

export const coreHttpMethodViolations = (root: string): ReadonlyArray<Violation> => scan(root, "core", httpMethodsIn)

/**
 * Contract documents core writes: a use of the JSON writer outside its own file. Response bodies and
 * event bodies are the contract's shapes, written at the edge (adapters/http/response) from the
 * domain values core returns; core's exact writer stays in core/shared only because the client and
 * the edge share it.
 */
export const jsonDocumentsIn = (file: string, source: string): ReadonlyArray<string> =>
  file === "core/shared/json-text.ts" || isTestOnly(file) ? [] : Array.from(withoutComments(source).matchAll(/\brenderJson\b/g), (m) => m[0])

export const coreJsonViolations = (root: string): ReadonlyArray<Violation> => scan(root, "core", jsonDocumentsIn)

/**
 * Import circles among the production files of `folders` (relative imports, type-only ones too):
 * each is listed once, as the files on it. A circle means two files are one concept split in two, or
 * a rule that belongs lower down.
 */
export const importCycles = (root: string, folders: ReadonlyArray<string>): ReadonlyArray<ReadonlyArray<string>> => {
  const edges = new Map<string, ReadonlyArray<string>>()
  for (const folder of folders) {
    for (const path of sourceFiles(resolve(root, folder))) {
      const file = relative(root, path).split(sep).join("/")
      if (isTestOnly(file)) continue
      edges.set(file, importsOf(readFileSync(path, "utf8"))
        .filter((specifier) => specifier.startsWith("."))
        .map((specifier) => join(dirname(file), specifier).split(sep).join("/").replace(/\.js$/, ".ts")))
    }
  }
  // Tarjan's strongly connected components: every component of more than one file is a circle.
  const index = new Map<string, number>()
  const low = new Map<string, number>()
  const stack: Array<string> = []
  const onStack = new Set<string>()
  const cycles: Array<ReadonlyArray<string>> = []
  const visit = (file: string) => {
    index.set(file, index.size)
    low.set(file, index.get(file)!)
    stack.push(file)
    onStack.add(file)
    for (const next of edges.get(file) ?? []) {
      if (!edges.has(next)) continue
      if (!index.has(next)) {
        visit(next)
        low.set(file, Math.min(low.get(file)!, low.get(next)!))
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, index.get(next)!))
      }
    }
    if (low.get(file) === index.get(file)) {
      const component: Array<string> = []
      let member: string
      do {
        member = stack.pop()!
        onStack.delete(member)
        component.push(member)
      } while (member !== file)
      if (component.length > 1) cycles.push(component.sort())
    }
  }
  for (const file of edges.keys()) if (!index.has(file)) visit(file)
  return cycles
}

import { readdirSync, readFileSync } from "node:fs"
import { dirname, join, relative, resolve, sep } from "node:path"

/**
 * The hexagon's one rule, checked from source text: `core/` depends on nothing outside itself but
 * `effect` (and `node:crypto` inside `core/signing`). Test files in core may also use the test tools.
 */
export interface Violation {
  readonly file: string
  readonly specifier: string
}

const IMPORT_PATTERN = /(?:^|[\s;])(?:import|export)\s+(?:type\s+)?(?:[^'";]*?\s+from\s+)?["']([^"']+)["']|\bimport\s*\(\s*["']([^"']+)["']\s*\)/g

const TEST_TOOLS = new Set(["vitest", "@effect/vitest", "fast-check"])

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

const sourceFiles = (directory: string): ReadonlyArray<string> =>
  readdirSync(directory, { withFileTypes: true }).flatMap((entry) => {
    const path = join(directory, entry.name)
    if (entry.isDirectory()) return sourceFiles(path)
    return entry.name.endsWith(".ts") ? [path] : []
  })

export const coreViolations = (root: string): ReadonlyArray<Violation> =>
  sourceFiles(resolve(root, "core")).flatMap((path) => {
    const file = relative(root, path).split(sep).join("/")
    return importsOf(readFileSync(path, "utf8"))
      .filter((specifier) => !isAllowed(file, specifier))
      .map((specifier) => ({ file, specifier }))
  })

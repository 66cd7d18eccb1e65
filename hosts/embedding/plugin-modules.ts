import { existsSync } from "node:fs"
import { createRequire } from "node:module"
import { isAbsolute, join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import type { PluginEntry } from "../../core/gateways/gateway-plugin-registry.js"
import { HostFailure } from "./host-config.js"

/** A file the operator points at, as opposed to an npm package name ("acme-pay", "@acme/pay"). */
const isFilePath = (specifier: string): boolean =>
  specifier === "." || specifier === ".." || specifier.startsWith("./") || specifier.startsWith("../") || isAbsolute(specifier)

const oneLine = (text: string): string => text.replace(/\s*\n\s*/g, " ").trim()

/** Loaders other than Node's (a test runner's) throw error-like objects that are not Errors. */
const reasonOf = (error: unknown): string => {
  const { name, message } = (typeof error === "object" && error !== null ? error : {}) as { readonly name?: unknown; readonly message?: unknown }
  const text = typeof message === "string" ? message : String(error)
  const kind = typeof name === "string" && name !== "Error" && name !== "" ? `${name}: ` : ""
  return oneLine(`${kind}${text}`) || "it failed without a message"
}

const codeOf = (error: unknown): unknown => (error as { readonly code?: unknown } | null)?.code

const failure = (specifier: string, reason: string) =>
  new HostFailure(`GATEWAY_PLUGINS: cannot load ${JSON.stringify(specifier)}: ${reason}`)

/**
 * The URL a specifier names. A package is resolved from `cwd` first, so a platform's own
 * node_modules serve; then from the kit's own location, which also finds a package that exports an
 * `import` condition only (require-style resolution cannot see those).
 */
const locate = (specifier: string, cwd: string): string => {
  if (isFilePath(specifier)) {
    const path = resolve(cwd, specifier)
    // Checked here: an import of a file that exists can also fail "not found", for a dependency it lacks.
    if (!existsSync(path)) throw failure(specifier, `no such file ${path}`)
    return pathToFileURL(path).href
  }
  try {
    return pathToFileURL(createRequire(join(cwd, "package.json")).resolve(specifier)).href
  } catch {
    return specifier
  }
}

const importModule = async (specifier: string, url: string, cwd: string): Promise<Record<string, unknown>> => {
  try {
    return (await import(url)) as Record<string, unknown>
  } catch (error) {
    const missing = url === specifier && (codeOf(error) === "ERR_MODULE_NOT_FOUND" || codeOf(error) === "MODULE_NOT_FOUND") &&
      reasonOf(error).includes(`'${specifier}'`)
    throw failure(specifier, missing ? `no package of that name is installed (looked in ${cwd} and the kit's own node_modules)` : reasonOf(error))
  }
}

const pluginOf = (specifier: string, loaded: Record<string, unknown>): unknown => {
  const plugin = loaded["default"]
  if (plugin === undefined || plugin === null) {
    throw failure(specifier, "it has no default export (export the plugin object: export default { id, apiVersion, ... })")
  }
  if (typeof plugin === "function") {
    throw failure(specifier, "its default export is a function; export the plugin object itself, not a factory or class")
  }
  return plugin
}

/**
 * Imports the gateway plugin modules GATEWAY_PLUGINS names, in order: each default export is a
 * plugin object. The first module that cannot be loaded stops the start with one line naming it;
 * what the plugin object itself lacks is judged later by the registry, against `source`, which is
 * the specifier as the operator wrote it.
 */
export const loadPluginModules = async (specifiers: ReadonlyArray<string>, cwd: string): Promise<ReadonlyArray<PluginEntry>> => {
  const entries: Array<PluginEntry> = []
  for (const specifier of specifiers) {
    const loaded = await importModule(specifier, locate(specifier, cwd), cwd)
    entries.push({ plugin: pluginOf(specifier, loaded), source: specifier })
  }
  return entries
}

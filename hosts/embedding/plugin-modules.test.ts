import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { ConfigProblem, HostFailure, readHostConfig } from "./host-config.js"
import { loadPluginModules } from "./plugin-modules.js"

const ROOT = fileURLToPath(new URL("../..", import.meta.url))
const EXAMPLE = join(ROOT, "examples", "acme-pay-plugin", "acme-pay.mjs")

const idOf = (plugin: unknown) => (plugin as { readonly id?: unknown }).id

/** The one line a failed load stops the start with. */
const refusal = async (specifiers: ReadonlyArray<string>, cwd: string): Promise<string> => {
  const error = await loadPluginModules(specifiers, cwd).then(() => undefined, (error: unknown) => error)
  expect(error).toBeInstanceOf(HostFailure)
  const message = (error as HostFailure).message
  expect(message).not.toContain("\n")
  return message
}

describe("loadPluginModules", () => {
  let scratch = ""
  beforeAll(() => {
    // Outside the repository on purpose: nothing may depend on the kit's own node_modules being near.
    scratch = mkdtempSync(join(tmpdir(), "mp-plugin-modules-"))
  })
  afterAll(() => {
    if (scratch !== "") rmSync(scratch, { recursive: true, force: true })
  })
  const write = (name: string, text: string) => {
    const path = join(scratch, name)
    mkdirSync(join(path, ".."), { recursive: true })
    writeFileSync(path, text)
    return path
  }

  it("loads the example by a path relative to cwd and by an absolute path, keeping each specifier as its source", async () => {
    const entries = await loadPluginModules(["./examples/acme-pay-plugin/acme-pay.mjs", EXAMPLE], ROOT)
    expect(entries.map((entry) => entry.source)).toEqual(["./examples/acme-pay-plugin/acme-pay.mjs", EXAMPLE])
    expect(entries.map((entry) => idOf(entry.plugin))).toEqual(["acme-pay", "acme-pay"])
  })

  it("resolves ../ paths from cwd, not from the host's own directory", async () => {
    const cwd = join(ROOT, "docs")
    const specifier = `../${relative(ROOT, EXAMPLE)}`
    const [entry] = await loadPluginModules([specifier], cwd)
    expect(entry?.source).toBe(specifier)
    expect(idOf(entry?.plugin)).toBe("acme-pay")
  })

  it("loads a copy of the example kept outside the repository", async () => {
    copyFileSync(EXAMPLE, join(scratch, "acme-copy.mjs"))
    const [entry] = await loadPluginModules(["./acme-copy.mjs"], scratch)
    expect(idOf(entry?.plugin)).toBe("acme-pay")
  })

  it("resolves a package name from cwd's node_modules", async () => {
    write("platform/node_modules/acme-pay/package.json", JSON.stringify({ name: "acme-pay", version: "1.0.0", type: "module", main: "index.mjs" }))
    write("platform/node_modules/acme-pay/index.mjs", `export default { id: "acme-pay-pkg", from: "a package" }\n`)
    const [entry] = await loadPluginModules(["acme-pay"], join(scratch, "platform"))
    expect(entry).toEqual({ source: "acme-pay", plugin: { id: "acme-pay-pkg", from: "a package" } })
  })

  it("hands a plugin object over as it is: its shape is the registry's to judge", async () => {
    write("old.mjs", `export default { id: "old-pay", apiVersion: 1 }\n`)
    const [entry] = await loadPluginModules(["./old.mjs"], scratch)
    expect(entry?.plugin).toEqual({ id: "old-pay", apiVersion: 1 })
  })

  it("a missing file: one line naming the module and where it was looked for", async () => {
    expect(await refusal(["./nowhere.mjs"], scratch)).toBe(`GATEWAY_PLUGINS: cannot load "./nowhere.mjs": no such file ${join(scratch, "nowhere.mjs")}`)
  })

  it("a package that is not installed", async () => {
    expect(await refusal(["acme-pay-not-installed"], scratch)).toMatch(
      /^GATEWAY_PLUGINS: cannot load "acme-pay-not-installed": no package of that name is installed \(looked in /
    )
  })

  it("a syntax error", async () => {
    write("broken.mjs", `export default { id: "broken",\n`)
    // Node says "SyntaxError: Unexpected end of input"; vitest's loader words it its own way.
    expect(await refusal(["./broken.mjs"], scratch)).toMatch(/^GATEWAY_PLUGINS: cannot load "\.\/broken\.mjs": (SyntaxError: )?\w.*(syntax|input)/i)
  })

  it("a module that throws while it is imported", async () => {
    write("throws.mjs", `throw new Error("ACME_REGION is not set\\nset it to eu or us")\n`)
    expect(await refusal(["./throws.mjs"], scratch)).toBe(`GATEWAY_PLUGINS: cannot load "./throws.mjs": ACME_REGION is not set set it to eu or us`)
  })

  it("a module without a default export, or with a factory as its default export", async () => {
    write("named.mjs", `export const plugin = { id: "named" }\n`)
    write("factory.mjs", `export default () => ({ id: "factory" })\n`)
    expect(await refusal(["./named.mjs"], scratch)).toMatch(/^GATEWAY_PLUGINS: cannot load "\.\/named\.mjs": it has no default export \(export the plugin object/)
    expect(await refusal(["./factory.mjs"], scratch)).toMatch(/^GATEWAY_PLUGINS: cannot load "\.\/factory\.mjs": its default export is a function; export the plugin object itself/)
  })

  it("stops at the first module that cannot be loaded, naming that one", async () => {
    expect(await refusal([EXAMPLE, "./nowhere.mjs", "./broken.mjs"], scratch)).toContain(`cannot load "./nowhere.mjs"`)
  })
})

describe("GATEWAY_PLUGINS and GATEWAY_PLUGIN_TIMEOUT_MS", () => {
  it("reads a comma-separated list, trimmed, without empty entries; none by default", () => {
    expect(readHostConfig({}).gatewayPlugins).toEqual([])
    expect(readHostConfig({ GATEWAY_PLUGINS: " acme-pay , ./plugins/x.mjs,,  " }).gatewayPlugins).toEqual(["acme-pay", "./plugins/x.mjs"])
  })

  it("reads the call timeout from 100 to 120000 ms; unset leaves the kit's default", () => {
    expect(readHostConfig({}).pluginCallTimeoutMillis).toBeUndefined()
    expect(readHostConfig({ GATEWAY_PLUGIN_TIMEOUT_MS: "2500" }).pluginCallTimeoutMillis).toBe(2_500)
    expect(() => readHostConfig({ GATEWAY_PLUGIN_TIMEOUT_MS: "99" })).toThrow(ConfigProblem)
    expect(() => readHostConfig({ GATEWAY_PLUGIN_TIMEOUT_MS: "120001" })).toThrow(/GATEWAY_PLUGIN_TIMEOUT_MS must be a whole number from 100 to 120000/)
  })
})

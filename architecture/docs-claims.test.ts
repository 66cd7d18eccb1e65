import { execFileSync } from "node:child_process"
import { existsSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { router } from "../adapters/http/app.js"
import { defaultSiteSettings } from "../core/settings/site-settings.js"

// The docs a newcomer reads first must name only what exists, and the README's map of the tree
// must show every folder: each check here failed on a doc that had drifted.
const root = join(dirname(fileURLToPath(import.meta.url)), "..")
const read = (path: string) => readFileSync(join(root, path), "utf8")
const readme = read("README.md")

/** `METHOD /path` with `{param}` and `:param` both as `{}`, query dropped. */
const routeKey = (method: string, path: string) => `${method} ${path.split("?")[0]!.replace(/\{[^}]+\}|:[A-Za-z_]+/g, "{}")}`
const registered = new Set([...router.routes].filter((route) => route.method !== "*").map((route) => routeKey(route.method, route.path)))

/** The fenced block that follows `## Layout`. */
const layoutBlock = () => {
  const section = readme.slice(readme.indexOf("## Layout"))
  return section.slice(section.indexOf("```") + 4, section.indexOf("```", section.indexOf("```") + 3))
}

/** Paths the layout names: top-level entries, the entries indented under each, and a third level under those. */
const layoutPaths = () => {
  const paths: Array<string> = []
  let parent = ""
  let second = ""
  for (const line of layoutBlock().split("\n")) {
    const names = line.trim().split(/\s+/).filter((token, i, all) => /^[\w.-]+(\/[\w.-]+)*\/?$/.test(token) && all.slice(0, i).every((t) => t.endsWith("/")))
    const indent = /^ */.exec(line)![0].length
    if (names.length === 0 || indent > 4 || indent === 1 || indent === 3) continue
    if (indent === 0) {
      parent = names[0]!.endsWith("/") ? names[0]! : ""
      paths.push(names[0]!)
    } else if (indent === 2) {
      const entries = names.filter((name) => name.endsWith("/") || name.includes("."))
      second = entries.length === 1 && entries[0]!.endsWith("/") ? parent + entries[0]! : ""
      paths.push(...entries.map((name) => parent + name))
    } else if (second !== "" && names[0]!.endsWith("/")) {
      paths.push(second + names[0]!)
    }
  }
  return paths.map((path) => path.replace(/\/$/, ""))
}

/** Folders git tracks, to two levels (generated and ignored folders are not part of the map). */
const trackedFolders = () => {
  const files = execFileSync("git", ["ls-files"], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean)
  const folders = new Set<string>()
  for (const file of files) {
    const parts = file.split("/").slice(0, -1)
    if (parts.length >= 1) folders.add(parts[0]!)
    if (parts.length >= 2 && parts[0] !== ".ci" && parts[0] !== "architecture") folders.add(`${parts[0]}/${parts[1]}`)
  }
  return [...folders].sort()
}

describe("docs claim only what exists", () => {
  it("the README layout names every tracked folder, and everything it names exists", () => {
    const named = layoutPaths()
    for (const path of named) expect(existsSync(join(root, path)), `README layout names ${path}`).toBe(true)
    const shown = new Set(named.flatMap((path) => [path, path.split("/")[0]!]))
    const missing = trackedFolders().filter((folder) => !shown.has(folder))
    expect(missing, "folders the README layout omits").toEqual([])
    // A folder the map opens up (adapters/http) shows every folder in it, tests' own folders aside.
    const opened = new Set(named.filter((path) => path.split("/").length === 3).map((path) => path.split("/").slice(0, 2).join("/")))
    expect(opened.size).toBeGreaterThan(0)
    const files = execFileSync("git", ["ls-files", ...opened], { cwd: root, encoding: "utf8" }).split("\n").filter(Boolean)
    const inside = new Set(files.map((file) => file.split("/")).filter((parts) => parts.length > 3 && parts[2] !== "testing").map((parts) => parts.slice(0, 3).join("/")))
    expect([...inside].filter((folder) => !named.includes(folder)), "folders an opened folder of the layout omits").toEqual([])
  })

  it("every route the README names is served, with that method", () => {
    const mentioned = [...readme.matchAll(/\b(GET|POST|PUT|PATCH|DELETE) (\/(?:api|admin)\/v1\/[^\s`]*)/g)].map((m) => routeKey(m[1]!, m[2]!))
    expect(mentioned.length).toBeGreaterThan(5)
    expect(mentioned.filter((route) => !registered.has(route))).toEqual([])
  })

  it("says nothing of subscriptions until their API exists: README opening, package description, site-info", () => {
    const served = [...registered].some((route) => route.includes("/api/v1/subscriptions"))
    const opening = readme.slice(0, readme.indexOf("\n## "))
    const description = String(JSON.parse(read("package.json")).description)
    // The default gateway description is what every merchant's site-info shows.
    if (!served) expect(`${opening}\n${description}\n${defaultSiteSettings.gatewayDescription}`).not.toMatch(/subscription/i)
  })

  it("hosts/README.md names only what is in hosts/", () => {
    const named = [...read("hosts/README.md").matchAll(/`([\w.-]+\/?)`/g)].map((m) => m[1]!).filter((name) => name.endsWith("/") || /\.\w+$/.test(name))
    expect(named.length).toBeGreaterThan(0)
    for (const name of named) expect(existsSync(join(root, "hosts", name)), `hosts/README.md names ${name}`).toBe(true)
  })

  it(".ci/run points only at files that exist", () => {
    const named = [...read(".ci/run").matchAll(/(?<![\w/$)."-])(?:\.?\w[\w-]*\/)*\w[\w-]*\.(?:mjs|js|ts|md|json)\b/g)].map((m) => m[0])
    expect(named).toContain(".ci/summarize.mjs")
    for (const path of named) expect(existsSync(join(root, path)), `.ci/run names ${path}`).toBe(true)
  })

  it("every `spec N.N` the code cites is a section, or a numbered item of one, in docs/api-contract.md", () => {
    const contract = read("docs/api-contract.md")
    const cited = new Set(execFileSync("git", ["grep", "-hoE", "spec [0-9]+(\\.[0-9]+)?", "--", "core", "adapters", "hosts", "client"], { cwd: root, encoding: "utf8" })
      .split("\n").filter(Boolean).map((citation) => citation.slice("spec ".length)))
    expect(cited.size).toBeGreaterThan(10)
    const present = new Set<string>()
    for (const section of contract.split(/^(?=## \d+\.)/m)) {
      const number = /^## (\d+)\./.exec(section)?.[1]
      if (number === undefined) continue
      present.add(number)
      for (const heading of section.matchAll(/^### (\d+\.\d+) /gm)) present.add(heading[1]!)
      // Numbered items count only before the first subsection: 5.9 is the ninth rule of section 5.
      for (const item of section.split(/^### /m)[0]!.matchAll(/^(\d+)\. /gm)) present.add(`${number}.${item[1]!}`)
    }
    expect([...cited].filter((citation) => !present.has(citation))).toEqual([])
  })
})

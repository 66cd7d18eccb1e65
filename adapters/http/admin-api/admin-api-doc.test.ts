import { readFileSync } from "node:fs"
import { describe, expect, it } from "vitest"
import { router } from "../app.js"

// docs/admin-api.md is written by hand until OpenAPI is generated from the routes: this keeps the
// page and the router listing the same admin routes, so neither can drift from the other silently.
const doc = readFileSync(new URL("../../../docs/admin-api.md", import.meta.url), "utf8")

/** `### METHOD /admin/v1/...` headings, with `{param}` spelled as the router's `:param`. */
const documented = [...doc.matchAll(/^### (GET|POST|PUT|PATCH|DELETE) (\/admin\/v1\/\S*)$/gm)].map(([, method, path]) =>
  `${method} ${path!.replace(/\{(\w+)\}/g, ":$1")}`)

// Catch-all routes (method `*` or a `*` path) answer for paths that are not routes of their own.
const registered = [...router.routes]
  .filter((route) => route.path.startsWith("/admin/v1/") && route.method !== "*" && !route.path.includes("*"))
  .map((route) => `${route.method} ${route.path}`)

describe("docs/admin-api.md", () => {
  it("lists every admin route the router registers, and no other", () => {
    expect(registered.length).toBeGreaterThan(20)
    expect(registered.filter((route) => !documented.includes(route)), "registered but not documented").toEqual([])
    expect(documented.filter((route) => !registered.includes(route)), "documented but not registered").toEqual([])
    expect(new Set(documented).size, "a route documented twice").toBe(documented.length)
  })

  it("gives each route a request and a response example: JSON, or the file a download answers", () => {
    const sections = doc.split(/^### /m).slice(1)
    expect(sections.length).toBe(documented.length)
    for (const section of sections) {
      const heading = section.split("\n")[0]!
      const [method, path] = heading.split(" ")
      // The request line shows the route with real ids in place of its parameters.
      expect(section, heading).toContain("```http\n" + `${method} ${path!.split("{")[0]}`)
      expect(section, heading).toMatch(/Response: `\d{3}`(?:\n\n```json\n[[{]| \(`Content-Disposition: attachment[^\n]*\n\n```(?:csv|xml)\n)/)
    }
  })
})

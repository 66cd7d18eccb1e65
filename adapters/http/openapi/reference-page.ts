import { createRequire } from "node:module"
import { readFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import * as Effect from "effect/Effect"
import { type Html, html } from "../pages/html.js"

/** Both pages' head: the same title and viewport, `extra` before it closes. */
const head = (extra: Html) => html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Merchant Payments API reference</title>
${extra}</head>`

/**
 * `/docs`: @scalar/api-reference rendering `/openapi.json`, both served by the kit. The URLs are
 * relative to the page, so it works under any base path and on whatever host name reached it, and
 * nothing is fetched from another host (no web fonts, no telemetry, no hosted agent).
 */
export const interactiveReferencePage = html`${head(html``)}
<body>
<div id="app"></div>
<script src="docs/scalar.js"></script>
<script>
Scalar.createApiReference("#app", {
  url: "openapi.json",
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  mcp: { disabled: true },
  hideClientButton: true,
  showDeveloperTools: "never"
})
</script>
</body>
</html>
`

/**
 * `/docs` when the renderer is not installed: @scalar/api-reference is an optional peer dependency
 * (156 MB with its own dependencies), so an embedding app that does not install it
 * gets this page, which links the document itself.
 */
export const plainReferencePage = html`${head(html`<style>body{font:1rem/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1a1a1a}a{color:#0b57d0}</style>
`)}
<body>
<main>
<h1>Merchant Payments API reference</h1>
<p>The API is described by its <a href="openapi.json">OpenAPI 3.1 document</a>; open it in any OpenAPI viewer or client generator.</p>
<p>This host serves the interactive reference page once the optional package <code>@scalar/api-reference</code> is installed beside the kit.</p>
</main>
</body>
</html>
`

/** The standalone browser bundle, found beside the package's own entry (its exports do not list it); undefined when not installed. */
const bundlePath = (): string | undefined => {
  try {
    return join(dirname(createRequire(import.meta.url).resolve("@scalar/api-reference")), "browser", "standalone.js")
  } catch {
    return undefined
  }
}

let installedBundle: string | undefined | null = null

/** Looked up once: whether the renderer is installed does not change while the host runs. */
export const rendererBundle = (): string | undefined => (installedBundle === null ? (installedBundle = bundlePath()) : installedBundle)

/** The page `/docs` answers with: the interactive one when its renderer is installed, else the plain one. */
export const referencePage = (): Html => (rendererBundle() === undefined ? plainReferencePage : interactiveReferencePage)

let bundle: Promise<Uint8Array> | undefined

/** Read once, on first request: 4 MB that most hosts never serve. Fails when the renderer is not installed. */
export const referenceScript = Effect.tryPromise({
  try: () => (bundle ??= readFile(rendererBundle() ?? "").then((bytes) => new Uint8Array(bytes), (error: unknown) => {
    bundle = undefined
    throw error
  })),
  catch: (error) => error
})

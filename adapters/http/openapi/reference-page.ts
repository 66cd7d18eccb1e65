import { createRequire } from "node:module"
import { readFile } from "node:fs/promises"
import { dirname, join } from "node:path"
import { Effect } from "effect"

/**
 * `/docs`: @scalar/api-reference rendering `/openapi.json`, both served by the kit. The URLs are
 * relative to the page, so it works under any base path and on whatever host name reached it, and
 * nothing is fetched from another host (no web fonts, no telemetry, no hosted agent).
 */
export const referencePage = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Merchant Payments API reference</title>
</head>
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

/** The standalone browser bundle, found beside the package's own entry (its exports do not list it). */
const bundlePath = () => join(dirname(createRequire(import.meta.url).resolve("@scalar/api-reference")), "browser", "standalone.js")

let bundle: Promise<Uint8Array> | undefined

/** Read once, on first request: 4 MB that most hosts never serve. */
export const referenceScript = Effect.tryPromise({
  try: () => (bundle ??= readFile(bundlePath()).then((bytes) => new Uint8Array(bytes), (error: unknown) => {
    bundle = undefined
    throw error
  })),
  catch: (error) => error
})

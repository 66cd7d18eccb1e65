import { writeFileSync } from "node:fs"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { renderOpenApiDocument } from "./document.js"

/** `npm start`'s default address; a served document names the base it is really under. */
export const DEFAULT_SERVER_URL = "http://localhost:8080"

/** Writes the document `/openapi.json` serves to `file`. */
export const writeOpenApi = (file: string, serverUrl: string = DEFAULT_SERVER_URL): void => {
  writeFileSync(file, renderOpenApiDocument(serverUrl))
}

// `node dist/adapters/http/openapi/write-openapi.js <file> [server url]` (npm run openapi).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [file = "docs/openapi.json", serverUrl] = process.argv.slice(2)
  writeOpenApi(file, serverUrl)
  console.log(`wrote ${file}`)
}

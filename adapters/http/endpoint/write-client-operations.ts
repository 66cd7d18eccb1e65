import { writeFileSync } from "node:fs"
import { resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { merchantApi } from "../merchant-api/merchant-api.js"
import { renderClientOperations } from "./client-operations.js"

// `node dist/adapters/http/endpoint/write-client-operations.js [file]` (npm run client:operations).
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  const [file = "client/operations.ts"] = process.argv.slice(2)
  writeFileSync(file, renderClientOperations(merchantApi))
  console.log(`wrote ${file}`)
}

import { createServer, type Server } from "node:http"
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll } from "vitest"
import { createMerchantPayments, type MerchantPayments } from "../../hosts/embedding/index.js"
import { httpConformance } from "./suite.js"

// The embedded kit as a platform mounts it: createMerchantPayments under /payments in a plain
// node:http server that has a route of its own. The same black-box suite as the standalone host,
// with every path (and every signature) under the base path. Business time is manual, for the expiry cases.
const directory = mkdtempSync(join(tmpdir(), "mp-http-embedded-"))
const ADMIN_TOKEN = "embedded-conformance-admin-token"
let payments: MerchantPayments | undefined
let server: Server | undefined
let origin = ""

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === "/") return void response.end("the platform's home page")
    payments!.handler(request, response)
  })
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve))
  origin = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  payments = await createMerchantPayments({
    database: `sqlite:${join(directory, "payments.db")}`,
    masterKey: "33".repeat(32),
    adminToken: ADMIN_TOKEN,
    baseUrl: origin,
    basePath: "/payments",
    clock: "manual",
    logging: false
  })
})

afterAll(async () => {
  await payments?.close()
  await new Promise((resolve) => server?.close(resolve))
  rmSync(directory, { recursive: true, force: true })
})

httpConformance("embedded under /payments on SQLite", () => ({ baseUrl: `${origin}/payments`, adminToken: ADMIN_TOKEN }))

import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { adminApi } from "../admin-api/admin-api.js"
import { merchantApi } from "../merchant-api/merchant-api.js"

const endpoints = [...merchantApi, ...adminApi]
const apiFolders = ["../merchant-api/", "../admin-api/"]
// routes/ holds the checkout and dashboard page routes.
const routeFolders = [...apiFolders, "../routes/"]

/** The production files of the folders named (relative to this one), each with its source. */
const sourcesIn = (folders: ReadonlyArray<string>) =>
  folders.flatMap((folder) => {
    const path = fileURLToPath(new URL(folder, import.meta.url))
    return readdirSync(path).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
      .map((name) => ({ name, source: readFileSync(path + name, "utf8") }))
  })

describe("an endpoint's query is declared once and decoded before its handler", () => {
  it("lists every list endpoint's query parameters from its query declaration, after the path's", () => {
    const reading = endpoints.filter((endpoint) => (endpoint.parameters ?? []).some((parameter) => parameter.in === "query"))
    expect(reading.map((endpoint) => endpoint.operationId).sort()).toEqual([
      "listAuditEntries", "listEvents", "listFailingWebhookTargets", "listFlaggedPayments", "listMerchants",
      "listPayments", "listRefunds", "listSubscriptions", "listWebhookDeliveries"
    ])
    for (const endpoint of reading) {
      const declared = "query" in endpoint ? endpoint.query?.parameters ?? [] : []
      expect(endpoint.parameters?.filter((parameter) => parameter.in === "query"), endpoint.operationId).toEqual(declared)
      expect(endpoint.parameters?.slice(-declared.length), endpoint.operationId).toEqual(declared)
    }
  })

  it("leaves no endpoint handler reading the query by name", () => {
    const endpointFiles = sourcesIn(apiFolders).filter(({ source }) => source.includes("endpoint({"))
    expect(endpointFiles.length).toBeGreaterThan(10)
    for (const { name, source } of endpointFiles) {
      expect(source, name).not.toMatch(/\blistQuery\b|searchParams|\.read\(query\)|query\.done\(/)
    }
  })

  it("has the dashboard's lists read their filters through the API's query declarations, not parameter by parameter", () => {
    for (const { name, source } of sourcesIn(routeFolders)) {
      expect(source, name).not.toMatch(/new ListQuery\(|Parameter\.read\(/)
    }
  })
})

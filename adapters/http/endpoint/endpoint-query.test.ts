import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { adminApi } from "../routes/admin-api.js"
import { merchantApi } from "../routes/merchant-api.js"

const endpoints = [...merchantApi, ...adminApi]
const routesFolder = fileURLToPath(new URL("../routes/", import.meta.url))

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
    const endpointFiles = readdirSync(routesFolder).filter((name) =>
      name.endsWith(".ts") && !name.endsWith(".test.ts") && readFileSync(routesFolder + name, "utf8").includes("endpoint({"))
    expect(endpointFiles.length).toBeGreaterThan(10)
    for (const name of endpointFiles) {
      const source = readFileSync(routesFolder + name, "utf8")
      expect(source, name).not.toMatch(/\blistQuery\b|searchParams|\.read\(query\)|query\.done\(/)
    }
  })

  it("has the dashboard's lists read their filters through the API's query declarations, not parameter by parameter", () => {
    const routeFiles = readdirSync(routesFolder).filter((name) => name.endsWith(".ts") && !name.endsWith(".test.ts"))
    for (const name of routeFiles) {
      const source = readFileSync(routesFolder + name, "utf8")
      expect(source, name).not.toMatch(/new ListQuery\(|Parameter\.read\(/)
    }
  })
})

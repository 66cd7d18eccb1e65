import { readdirSync, readFileSync } from "node:fs"
import { join, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import { adminApi } from "../admin-api/admin-api.js"
import { merchantApi } from "../merchant-api/merchant-api.js"

const endpoints = [...merchantApi, ...adminApi]
const http = fileURLToPath(new URL("../", import.meta.url))

/** The production files under adapters/http that `keep` takes (by their path from there), each with its source. */
const sourcesWhere = (keep: (path: string) => boolean) =>
  readdirSync(http, { recursive: true, encoding: "utf8" }).map((path) => path.split(sep).join("/"))
    .filter((path) => path.endsWith(".ts") && !path.endsWith(".test.ts") && keep(path))
    .map((name) => ({ name, source: readFileSync(join(http, name), "utf8") }))

describe("an endpoint's query is declared once and decoded before its handler", () => {
  it("lists every query-reading endpoint's query parameters from its query declaration, after the path's", () => {
    const reading = endpoints.filter((endpoint) => (endpoint.parameters ?? []).some((parameter) => parameter.in === "query"))
    expect(reading.map((endpoint) => endpoint.operationId).sort()).toEqual([
      "downloadReconciliationLines", "exportPayouts", "getTrialBalance", "invoicePdf", "listAdminDisputes", "listAdminPayouts", "listAuditEntries", "listDisputes",
      "listEvents", "listFailingWebhookTargets", "listFlaggedPayments", "listMerchants", "listPayments", "listPayoutEntries", "listPayouts",
      "listReconciliationLines", "listReconciliationReports", "listRefunds", "listRequestLogs", "listSubscriptions", "listWebhookDeliveries", "streamEvents",
      "uploadReconciliationReport"
    ])
    for (const endpoint of reading) {
      const declared = "query" in endpoint ? endpoint.query?.parameters ?? [] : []
      expect(endpoint.parameters?.filter((parameter) => parameter.in === "query"), endpoint.operationId).toEqual(declared)
      expect(endpoint.parameters?.slice(-declared.length), endpoint.operationId).toEqual(declared)
    }
  })

  it("leaves no endpoint handler reading the query by name", () => {
    const endpointFiles = sourcesWhere((path) => /^(merchant|admin)-api\//.test(path)).filter(({ source }) => source.includes("endpoint({"))
    expect(endpointFiles.length).toBeGreaterThan(10)
    for (const { name, source } of endpointFiles) {
      expect(source, name).not.toMatch(/\blistQuery\b|searchParams|\.read\(query\)|query\.done\(/)
    }
  })

  it("has the dashboard's lists read their filters through the API's query declarations, not parameter by parameter", () => {
    // Route files by name, wherever their audience keeps them (the dashboard's beside its views).
    const routeFiles = sourcesWhere((path) => path.endsWith("-routes.ts"))
    expect(routeFiles.filter(({ name }) => name.startsWith("dashboard/")).length).toBeGreaterThan(5)
    for (const { name, source } of routeFiles) {
      expect(source, name).not.toMatch(/new ListQuery\(|Parameter\.read\(/)
    }
  })
})

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"
import {
  adapterViolations, coreGlobalViolations, coreHttpMethodViolations, coreJsonViolations, coreViolations, httpMethodsIn, jsonDocumentsIn, hostViolations, importCycles, importsOf, isAllowed, isAllowedInAdapters,
  isAllowedInHosts, isRouteFile, nodeGlobalsIn, routeStorageViolations, valueImportsOf
} from "./dependency-rule.js"

const root = fileURLToPath(new URL("..", import.meta.url))

describe("dependencies point inward", () => {
  it("core imports only effect, itself, and node:crypto in core/signing", () => {
    expect(coreViolations(root)).toEqual([])
  })

  it("core reaches no Node global (Buffer, process...) outside core/signing", () => {
    expect(coreGlobalViolations(root)).toEqual([])
  })

  it("core names no HTTP method (outside core/signing, whose signature covers it): the edge names its operations", () => {
    expect(coreHttpMethodViolations(root)).toEqual([])
  })

  it("the HTTP method rule sees a method in any quotes, and leaves comments, words and core/signing alone", () => {
    expect(httpMethodsIn("core/refunds/x.ts", "fingerprint(\"POST\", `/refund/${id}`)")).toEqual(["\"POST\""])
    expect(httpMethodsIn("core/x.ts", "const line = `PATCH /admin/v1/merchants/${id}`\nif (method === 'get') {}")).toEqual(["`PATCH /admin/v1/merchants/${id}`"])
    expect(httpMethodsIn("core/x.ts", "/** GET /api/v1/refunds */\n// POST cancel\nconst word = \"GETTER\"")).toEqual([])
    expect(httpMethodsIn("core/signing/request-signature.ts", "method: \"POST\"")).toEqual([])
    expect(httpMethodsIn("core/x.test.ts", "method: \"POST\"")).toEqual([])
  })

  it("core writes no contract document (response or event body): it returns domain values, the edge shapes them", () => {
    expect(coreJsonViolations(root)).toEqual([])
  })

  it("the contract document rule sees the writer used and leaves its own file, comments and tests alone", () => {
    expect(jsonDocumentsIn("core/refunds/refund-event.ts", "body: renderJson({ event })")).toEqual(["renderJson"])
    expect(jsonDocumentsIn("core/x.ts", "import { renderJson } from \"../shared/json-text.js\"")).toEqual(["renderJson"])
    expect(jsonDocumentsIn("core/x.ts", "// renderJson is the edge's\nconst a = 1")).toEqual([])
    expect(jsonDocumentsIn("core/shared/json-text.ts", "export const renderJson = 1")).toEqual([])
    expect(jsonDocumentsIn("core/x.test.ts", "renderJson({})")).toEqual([])
  })

  it("adapters never import the hosts or the conformance suites (test-only code may)", () => {
    expect(adapterViolations(root)).toEqual([])
  })

  it("hosts point one way: the assembly and the embedding facade reach no host built on them, no host the client", () => {
    expect(hostViolations(root)).toEqual([])
  })

  it("the host rule refuses the backward arrows and leaves test-only code free", () => {
    expect(isAllowedInHosts("hosts/embedding/config-from-env.ts", "../standalone/host-config.js")).toBe(false)
    expect(isAllowedInHosts("hosts/kit-layer.ts", "./embedded/server.mjs")).toBe(false)
    expect(isAllowedInHosts("hosts/embedding/in-process-admin.ts", "../../client/exact-json.js")).toBe(false)
    expect(isAllowedInHosts("hosts/standalone/server.ts", "../../client/exact-json.js")).toBe(false)
    expect(isAllowedInHosts("hosts/standalone/server.ts", "../../end-to-end/suites/test-kit-config.js")).toBe(false)
    expect(isAllowedInHosts("hosts/standalone/server.ts", "vitest")).toBe(false)
    expect(isAllowedInHosts("hosts/standalone/server.ts", "../embedding/host-config.js")).toBe(true)
    expect(isAllowedInHosts("hosts/standalone/server.ts", "../kit-layer.js")).toBe(true)
    expect(isAllowedInHosts("hosts/embedding/index.ts", "../kit-layer.js")).toBe(true)
    expect(isAllowedInHosts("hosts/embedding/index.ts", "../../adapters/http/app.js")).toBe(true)
    expect(isAllowedInHosts("hosts/standalone/quickstart.test.ts", "../../client/index.js")).toBe(true)
    expect(isAllowedInHosts("hosts/standalone/testing/host.ts", "../../../client/index.js")).toBe(true)
  })

  it("routes answer through use cases: no route file uses a storage port itself", () => {
    expect(routeStorageViolations(root)).toEqual([])
  })

  it("the route rule finds route files by name, in whichever audience's folder they live", () => {
    expect(isRouteFile("adapters/http/merchant-api/payment-routes.ts")).toBe(true)
    expect(isRouteFile("adapters/http/operations/health-routes.ts")).toBe(true)
    expect(isRouteFile("adapters/http/dashboard/payments/payment-routes.ts")).toBe(true)
    expect(isRouteFile("adapters/http/routes/checkout-routes.ts")).toBe(true)
    expect(isRouteFile("adapters/http/dashboard/visitor.ts")).toBe(false)
    expect(isRouteFile("adapters/http/testing/fake-routes.ts")).toBe(false)
  })

  it("the route rule reads value imports and leaves type-only ones", () => {
    const source = [
      `import { PaymentRepository } from "../../../core/payments/payment-repository.js"`,
      `import type { Payment } from "../../../core/payments/payment.js"`,
      `import { type PaymentFlag, recentFlags as flags } from "../../../core/payments/payment-record.js"`
    ].join("\n")
    expect(valueImportsOf("adapters/http/merchant-api/x.ts", source)).toEqual([
      { module: "core/payments/payment-repository.ts", name: "PaymentRepository" },
      { module: "core/payments/payment-record.ts", name: "recentFlags" }
    ])
  })

  it("no production file imports itself round a circle, type-only imports included", () => {
    expect(importCycles(root, ["core", "adapters", "hosts", "client"])).toEqual([])
  })

  it("the circle finder sees a type-only circle and leaves test files out", () => {
    const scratch = mkdtempSync(join(tmpdir(), "mp-cycles-"))
    try {
      mkdirSync(join(scratch, "core", "money"), { recursive: true })
      writeFileSync(join(scratch, "core", "money", "a.ts"), `import type { B } from "./b.js"\nexport const a = 1\n`)
      writeFileSync(join(scratch, "core", "money", "b.ts"), `import { a } from "./a.js"\nexport type B = typeof a\n`)
      writeFileSync(join(scratch, "core", "money", "c.ts"), `import { a } from "./a.js"\n`)
      writeFileSync(join(scratch, "core", "money", "c.test.ts"), `import "./c.js"\n`)
      writeFileSync(join(scratch, "core", "money", "d.ts"), `import "./c.test.js"\n`)
      expect(importCycles(scratch, ["core"])).toEqual([["core/money/a.ts", "core/money/b.ts"]])
    } finally {
      rmSync(scratch, { recursive: true, force: true })
    }
  })

  it("the adapter rule refuses hosts, suites and test tools in production files only", () => {
    expect(isAllowedInAdapters("adapters/http/app.ts", "../../hosts/kit-layer.js")).toBe(false)
    expect(isAllowedInAdapters("adapters/http/app.ts", "../../conformance/http/suite.js")).toBe(false)
    expect(isAllowedInAdapters("adapters/http/app.ts", "vitest")).toBe(false)
    expect(isAllowedInAdapters("adapters/http/app.ts", "../../core/payments/payment.js")).toBe(true)
    expect(isAllowedInAdapters("adapters/http/app.ts", "@effect/platform")).toBe(true)
    expect(isAllowedInAdapters("adapters/http/app.test.ts", "../../hosts/kit-layer.js")).toBe(true)
    expect(isAllowedInAdapters("adapters/http/testing/client.ts", "../../../hosts/kit-layer.js")).toBe(true)
  })

  it("the global rule sees uses, not words in comments", () => {
    expect(nodeGlobalsIn("core/merchants/a.ts", `const x = Buffer.from("ab", "hex")`)).toEqual(["Buffer"])
    expect(nodeGlobalsIn("core/merchants/a.ts", `if (process.env["X"]) {}`)).toEqual(["process"])
    expect(nodeGlobalsIn("core/merchants/a.ts", `// Buffer.from is not used\n/** process.env */ const a = 1`)).toEqual([])
    expect(nodeGlobalsIn("core/payments/p.ts", `the process stops`)).toEqual([])
    expect(nodeGlobalsIn("core/signing/hmac.ts", `Buffer.from(x)`)).toEqual([])
    expect(nodeGlobalsIn("core/merchants/a.test.ts", `Buffer.from(x)`)).toEqual([])
  })

  it("finds every import form", () => {
    const source = [
      `import { Effect } from "effect"`,
      `import type { SqlClient } from "@effect/sql"`,
      `import * as Http from "@effect/platform/HttpServer"`,
      `export { layer } from "../../adapters/sql/storage-layer.js"`,
      `import "node:fs"`,
      `const lazy = await import("../../hosts/standalone/main.js")`,
      `import {\n  a,\n  b\n} from "./multi-line.js"`
    ].join("\n")
    expect(importsOf(source)).toEqual([
      "effect",
      "@effect/sql",
      "@effect/platform/HttpServer",
      "../../adapters/sql/storage-layer.js",
      "node:fs",
      "../../hosts/standalone/main.js",
      "./multi-line.js"
    ])
  })

  it("refuses what the rule forbids", () => {
    expect(isAllowed("core/payments/payment.ts", "../../adapters/sql/payment-repository.js")).toBe(false)
    expect(isAllowed("core/payments/payment.ts", "../../hosts/standalone/main.js")).toBe(false)
    expect(isAllowed("core/payments/payment.ts", "@effect/platform")).toBe(false)
    expect(isAllowed("core/payments/payment.ts", "@effect/sql/SqlClient")).toBe(false)
    expect(isAllowed("core/payments/payment.ts", "node:fs")).toBe(false)
    expect(isAllowed("core/payments/payment.ts", "node:crypto")).toBe(false)
    expect(isAllowed("core/payments/payment.test.ts", "node:crypto")).toBe(false)
    expect(isAllowed("core/payments/payment.ts", "vitest")).toBe(false)
  })

  it("allows what the rule allows", () => {
    expect(isAllowed("core/payments/payment.ts", "effect")).toBe(true)
    expect(isAllowed("core/payments/payment.ts", "../money/amount.js")).toBe(true)
    expect(isAllowed("core/signing/hmac.ts", "node:crypto")).toBe(true)
    expect(isAllowed("core/money/fees.test.ts", "fast-check")).toBe(true)
    expect(isAllowed("core/money/fees.test.ts", "@effect/vitest")).toBe(true)
  })
})

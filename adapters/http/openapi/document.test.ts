import { Validator } from "@seriousme/openapi-schema-validator"
import { mkdtempSync, readFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { router } from "../app.js"
import { operations } from "./document.js"
import { ADMIN_TOKEN, BASE_URL, type DocumentedKit, initiateBody, startDocumentedKit, subscriptionBody } from "./testing/documented-kit.js"
import { DEFAULT_SERVER_URL, writeOpenApi } from "./write-openapi.js"

let kit: DocumentedKit
let served: { readonly text: string; readonly document: any }

beforeAll(async () => {
  kit = await startDocumentedKit()
  const response = await kit.raw(new Request("http://kit.test/openapi.json"))
  expect(response.status).toBe(200)
  const text = await response.text()
  served = { text, document: JSON.parse(text) }
})
afterAll(() => kit.close())

/** `{name}` as the router spells it. */
const routerPath = (path: string) => path.replace(/\{(\w+)\}/g, ":$1")

const documented = operations.map((operation) => `${operation.method.toUpperCase()} ${routerPath(operation.path)}`)

/** Whether a documented operation is one a router route answers (a final `*` takes the rest of the path). */
const answers = (route: { readonly method: string; readonly path: string }, operation: string) => {
  const [method, path] = operation.split(" ") as [string, string]
  if (method !== route.method) return false
  return route.path.endsWith("/*") ? path.startsWith(route.path.slice(0, -1)) : path === route.path
}

describe("the OpenAPI document and the router", () => {
  it("documents every route the router registers", () => {
    const routes = [...router.routes].map((route) => ({ method: route.method, path: route.path }))
    expect(routes.length).toBeGreaterThan(40)
    const undocumented = routes.filter((route) => !documented.some((operation) => answers(route, operation)))
    expect(undocumented, "registered but not documented").toEqual([])
  })

  it("documents only routes the router registers, each once", () => {
    const routes = [...router.routes]
    expect(documented.filter((operation) => !routes.some((route) => answers(route, operation))), "documented but not registered").toEqual([])
    expect(new Set(documented).size).toBe(documented.length)
  })

  it("every documented operation answers something other than 404 or 405 on a running kit", async () => {
    const { merchantId, notifyingGatewayId, sandboxGatewayId, walletId } = kit.shop
    const paid = JSON.parse((await kit.merchant("POST", "/api/v1/initiate-payment", initiateBody("doc-paid"))).text).info.trx_id
    expect((await kit.merchant("POST", `/api/v1/sandbox/payments/${paid}/simulate`, { outcome: "success" })).status).toBe(200)
    const subscription = JSON.parse((await kit.merchant("POST", "/api/v1/subscriptions", subscriptionBody("doc-plan"))).text).data.id
    const delivery = (await kit.outbox())[0]!.id
    const user = JSON.parse((await kit.admin("POST", `/merchants/${merchantId}/users`, { email: "doc-user@shop.example", role: "viewer" })).text).data.id
    const destination = JSON.parse((await kit.merchant("POST", "/api/v1/payout-destinations", {
      type: "bank_account", account_holder: "Doc Shop", iban: "DE89370400440532013000", currency: "USD"
    })).text).data.id
    const payout = JSON.parse((await kit.merchant("POST", "/api/v1/payouts", { amount: "0.01", currency: "USD", destination_id: destination })).text).data.id
    const sandboxCode = JSON.parse((await kit.admin("GET", "/gateways")).text).data.find((gateway: { id: number }) => gateway.id === sandboxGatewayId).code
    const report = JSON.parse(await (await kit.raw(new Request("http://kit.test/admin/v1/reconciliation/reports?from=2020-01-01T00:00:00Z&to=2020-02-01T00:00:00Z", {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "text/csv" },
      body: `gateway,environment,gateway_reference,type,amount,currency,settled_at\r\n${sandboxCode},sandbox,ref-1,payment,1.00,USD,2020-01-02T00:00:00Z\r\n`
    }))).text()).data.id
    let pending = 0
    const freshToken = async () => {
      const session = JSON.parse((await kit.merchant("POST", "/api/v1/initiate-payment", initiateBody(`doc-pending-${++pending}`))).text)
      return session.payment_url.split("/checkout/")[1] as string
    }
    const idFor = (path: string) =>
      path.startsWith("/admin/v1/merchants/") ? merchantId
        : path.startsWith("/admin/v1/wallets/") ? walletId
        : path.startsWith("/admin/v1/gateways/") ? sandboxGatewayId
        : path.startsWith("/admin/v1/payouts/") ? payout
        : path.startsWith("/admin/v1/reconciliation/reports/") ? report
        : path.startsWith("/gateways/") ? notifyingGatewayId
        : delivery
    const portalToken = async () => {
      const link = JSON.parse((await kit.merchant("POST", "/api/v1/customer-portal-sessions", { customer_email: "doc@shop.example", return_url: "https://shop.example/account" })).text)
      return link.data.url.split("/customer-portal/session/")[1] as string
    }
    const answered: Array<string> = []
    for (const operation of operations) {
      const token = !operation.path.includes("{token}") ? "" : operation.path.startsWith("/customer-portal/") ? await portalToken() : await freshToken()
      const path = operation.path
        .replace("{trxId}", paid).replace("{trx_id}", paid).replace("{subscriptionId}", subscription).replace("{payoutId}", payout)
        .replace("{token}", token).replace("{gateway_id}", String(sandboxGatewayId)).replace("{id}", String(idFor(operation.path))).replace("{user_id}", user) +
        // A stream never ends by itself: asked with a pattern it refuses (422), it still shows it is routed.
        (operation.path === "/api/v1/events/stream" ? "?types=not-a-type" : "")
      const method = operation.method.toUpperCase()
      const body = operation.body === undefined ? undefined : {}
      const { status } = operation.security === "admin" && path.startsWith("/admin/v1/")
        ? await kit.admin(method, path.slice("/admin/v1".length), body)
        : operation.security === "admin"
        // The host's own routes behind the admin token (/metrics).
        ? await kit.raw(new Request(`http://kit.test${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }))
        : operation.security === "none"
        ? await kit.raw(new Request(`http://kit.test${path}`, { method, ...(method === "GET" ? {} : { body: "" }) }))
        : await kit.merchant(method, path, body)
      answered.push(`${method} ${operation.path} ${status}`)
    }
    expect(answered.filter((line) => / 40[45]$/.test(line)), answered.join("\n")).toEqual([])
  })
})

describe("the OpenAPI document itself", () => {
  it("is a valid OpenAPI 3.1 document whose references all resolve", async () => {
    const validator = new Validator()
    const result = await validator.validate(served.document)
    expect(result.errors ?? [], JSON.stringify(result.errors)).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe("3.1")
    const refs = [...served.text.matchAll(/"\$ref": "#\/components\/schemas\/([^"]+)"/g)].map(([, name]) => name!)
    expect(refs.length).toBeGreaterThan(50)
    expect(refs.filter((name) => served.document.components.schemas[name] === undefined)).toEqual([])
  })

  it("names the kit's public base (with its base path) as its server", () => {
    expect(served.document.servers).toEqual([{ url: BASE_URL }])
  })

  it("declares every path parameter of every path, gives each operation a unique id and a known security scheme", () => {
    const ids = new Set<string>()
    for (const [path, item] of Object.entries<any>(served.document.paths)) {
      for (const operation of Object.values<any>(item)) {
        const declared = operation.parameters.filter((parameter: any) => parameter.in === "path").map((parameter: any) => parameter.name).sort()
        expect(declared, path).toEqual([...path.matchAll(/\{(\w+)\}/g)].map(([, name]) => name).sort())
        expect(ids.has(operation.operationId), operation.operationId).toBe(false)
        ids.add(operation.operationId)
        for (const requirement of operation.security) {
          for (const scheme of Object.keys(requirement)) expect(served.document.components.securitySchemes).toHaveProperty(scheme)
        }
      }
    }
  })

  it("describes the merchant signature as header schemes, admin as a bearer token, and every webhook event", () => {
    const { securitySchemes } = served.document.components
    expect(Object.values<any>(securitySchemes).filter((scheme) => scheme.type === "apiKey" && scheme.in === "header").map((scheme) => scheme.name))
      .toEqual(["X-Environment", "X-Merchant-Key", "X-API-Key", "X-Timestamp", "X-Signature"])
    expect(securitySchemes.DashboardSession).toMatchObject({ type: "apiKey", in: "cookie", name: "mp_dashboard" })
    expect(served.document.paths["/dashboard/payments/{trx_id}"].get.security).toEqual([{ DashboardSession: [] }])
    expect(securitySchemes.Signature.description).toContain("<X-Timestamp>.<METHOD>.<path with query>.<raw body>")
    expect(securitySchemes.AdminBearer).toMatchObject({ type: "http", scheme: "bearer" })
    expect(served.document.paths["/api/v1/initiate-payment"].post.security).toEqual([{ Environment: [], MerchantKey: [], ApiKey: [], Timestamp: [], Signature: [] }])
    expect(served.document.paths["/admin/v1/merchants"].get.security).toEqual([{ AdminBearer: [] }])
    expect(Object.keys(served.document.webhooks).sort()).toEqual([
      "invoice.created", "payment.cancelled", "payment.completed", "payment.expired", "payment.failed", "payment.refunded",
      "payout.created", "payout.failed", "payout.paid", "subscription.activated", "subscription.cancelled", "subscription.past_due", "subscription.renewed"
    ])
  })

  it("documents the limits the server enforces, from the same declaration", () => {
    const initiate = served.document.components.schemas.InitiatePaymentRequest
    expect(initiate.required).toEqual(["payment_amount", "currency_code", "ref_trx", "success_redirect", "cancel_redirect", "ipn_url"])
    expect(initiate.properties.ref_trx.maxLength).toBe(60)
    expect(initiate.properties.customer_name.anyOf[0].maxLength).toBe(100)
    const create = served.document.components.schemas.CreateSubscriptionRequest
    expect(create.properties.customer_email.maxLength).toBe(150)
    expect(create.properties.ipn_url.maxLength).toBe(255)
    const cancel = served.document.components.schemas.CancelSubscriptionRequest
    expect(cancel.properties.at_period_end.anyOf[0].default).toBe(true)
    const perPage = served.document.paths["/api/v1/subscriptions"].get.parameters.find((parameter: any) => parameter.name === "per_page")
    expect(perPage.schema).toMatchObject({ minimum: 1, maximum: 100, default: 20 })
  })

  it("lists each operation's refusals with the error table's codes", () => {
    const refund = served.document.paths["/api/v1/refund-payment"].post.responses
    expect(refund["422"].description).toContain("`INVALID_STATE`: Only completed payments can be refunded")
    expect(refund["422"].description).toContain("`INSUFFICIENT_BALANCE`: Merchant wallet balance is insufficient to process this refund")
    expect(refund["401"].description).toContain("`INVALID_CREDENTIALS`")
    expect(refund["422"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Error" })
  })
})

describe("npm run openapi", () => {
  it("writes what /openapi.json serves, but for the server address", () => {
    const file = join(mkdtempSync(join(tmpdir(), "mp-openapi-file-")), "openapi.json")
    writeOpenApi(file, BASE_URL)
    expect(readFileSync(file, "utf8")).toBe(served.text)
    writeOpenApi(file)
    const written = JSON.parse(readFileSync(file, "utf8"))
    expect(written.servers).toEqual([{ url: DEFAULT_SERVER_URL }])
    expect({ ...written, servers: served.document.servers }).toEqual(served.document)
  })
})

describe("the reference page", () => {
  it("renders /openapi.json with the renderer the kit serves itself, under any base path", async () => {
    const page = await kit.raw(new Request("http://kit.test/docs"))
    expect(page.status).toBe(200)
    expect(page.headers.get("content-type")).toContain("text/html")
    const html = await page.text()
    expect(html).toContain(`<script src="docs/scalar.js"></script>`)
    expect(html).toContain(`url: "openapi.json"`)
    expect(html).not.toMatch(/https?:\/\//)
    const script = await kit.raw(new Request("http://kit.test/docs/scalar.js"))
    expect(script.status).toBe(200)
    expect(script.headers.get("content-type")).toContain("javascript")
    expect(await script.text()).toContain("createApiReference")
  })
})

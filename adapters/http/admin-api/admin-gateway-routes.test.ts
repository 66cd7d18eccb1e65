import { HttpApp } from "@effect/platform"
import { mkdtempSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { Effect, ManagedRuntime, Option } from "effect"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { makeCurrencyCatalog } from "../../../core/money/currencies.js"
import { GATEWAY_PLUGIN_API_VERSION, type GatewayPluginDefinition } from "../../../core/gateways/gateway-plugin.js"
import { open } from "../../../core/signing/secret-box.js"
import { GatewayRepository } from "../../../core/gateways/gateway-repository.js"
import { defaultSiteSettings } from "../../../core/settings/site-settings.js"
import { GatewayId, MerchantId } from "../../../core/shared/ids.js"
import { defaultWebhookConfig, kitLayer } from "../../../hosts/kit-layer.js"
import { httpApp } from "../app.js"

/**
 * A second plugin with rules the sandbox lacks, written Promise-style as a third party would: two
 * currencies, a required secret, an optional whole number, unknown keys refused.
 */
const cardsPlugin: GatewayPluginDefinition<{ readonly api_key: string; readonly retries?: number }> = {
  id: "cards",
  displayName: "Cards",
  version: "0.1.0",
  apiVersion: GATEWAY_PLUGIN_API_VERSION,
  environments: ["sandbox", "production"],
  currencies: ["USD", "BDT"],
  secretConfigKeys: ["api_key"],
  parseConfig(raw) {
    const config = raw as Record<string, unknown>
    const unknown = Object.keys(config).filter((key) => key !== "api_key" && key !== "retries")
    if (unknown.length > 0) throw new Error(`Unknown config field: ${unknown.join(", ")}.`)
    if (typeof config["api_key"] !== "string" || config["api_key"] === "") throw new Error("api_key is required.")
    if (config["retries"] !== undefined && !Number.isInteger(config["retries"])) throw new Error("retries must be a whole number.")
    return config as { readonly api_key: string; readonly retries?: number }
  },
  beginCheckout: async () => ({ redirect: "https://cards.example/pay" }),
  handleReturn: async () => ({ outcome: "pending", verified: true })
}

const currencies = makeCurrencyCatalog({ cryptoCodes: ["BTC"] })
if (currencies._tag === "Left") throw currencies.left

// The kit registers the sandbox simulator itself; the test adds a second plugin with other rules.
const kit = kitLayer({
  store: { kind: "sqlite", filename: join(mkdtempSync(join(tmpdir(), "mp-gateways-")), "store.db") },
  masterKey: new Uint8Array(32).fill(5),
  adminToken: "admin-token",
  settings: defaultSiteSettings,
  currencies: currencies.right,
  baseUrl: "http://kit.test",
  checkoutLifetimeSeconds: 3600,
        webhooks: defaultWebhookConfig,
        backgroundJobs: false,
  plugins: [cardsPlugin]
})
const runtime = ManagedRuntime.make(kit)
let handler: (request: Request) => Promise<Response>

beforeAll(async () => {
  handler = HttpApp.toWebHandlerRuntime(await runtime.runtime())(httpApp)
})
afterAll(() => runtime.dispose())

const call = async (method: string, path: string, body?: unknown, token = "admin-token") => {
  const response = await handler(new Request(`http://kit.test/admin/v1${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    ...(body === undefined ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) })
  }))
  return { status: response.status, body: await response.json() as any }
}

/** A sealed config field as the master key opens it. */
const opened = (sealed: unknown) => {
  expect(typeof sealed === "string" && sealed.startsWith("v1.")).toBe(true)
  const result = open(new Uint8Array(32).fill(5), sealed as string)
  if (result._tag === "Left") throw result.left
  return result.right
}

const storedConfig = (id: number) =>
  runtime.runPromise(Effect.flatMap(GatewayRepository, (r) => r.findById(GatewayId(id))).pipe(Effect.map((g) => Option.getOrThrow(g).config)))

let sequence = 0
const uniqueMethod = (prefix = "m") => `${prefix}_${++sequence}_${Date.now().toString(36)}`

const createSandbox = async (extra: Record<string, unknown> = {}) => {
  const response = await call("POST", "/gateways", { plugin: "sandbox", name: "Sandbox", currency_code: "USD", method: uniqueMethod(), ...extra })
  expect(response.status, JSON.stringify(response.body)).toBe(201)
  return response.body
}

describe("admin gateways: create and list", () => {
  it("requires the admin token", async () => {
    expect((await call("GET", "/gateways", undefined, "wrong")).status).toBe(401)
  })

  it("creates a gateway (201) with a lower-case code, automatic and active by default, and lists it", async () => {
    const method = `Card_${Date.now().toString(36)}`
    const { body, status } = await call("POST", "/gateways", { plugin: "sandbox", name: "Test cards", currency_code: "USD", method })
    expect(status).toBe(201)
    expect(Object.keys(body).sort()).toEqual(["active", "code", "currency_code", "id", "method", "name", "plugin", "type"])
    expect(body).toMatchObject({ plugin: "sandbox", name: "Test cards", currency_code: "USD", method, code: `${method}-usd`.toLowerCase(), type: "automatic", active: true })
    const list = await call("GET", "/gateways")
    expect(list.status).toBe(200)
    expect(list.body.data).toContainEqual(body)
  })

  it("takes type, active and config; stores the config but never shows it", async () => {
    const created = await createSandbox({ type: "manual", active: false, config: { label: "Bank desk" } })
    expect(created).toMatchObject({ type: "manual", active: false })
    expect(created).not.toHaveProperty("config")
    expect(await storedConfig(created.id)).toEqual({ label: "Bank desk" })
  })

  it("keeps exact numbers in a plugin's config and refuses inexact ones", async () => {
    const body = { plugin: "cards", name: "Cards", currency_code: "BDT", method: uniqueMethod(), config: { api_key: "k", retries: 3 } }
    const created = await call("POST", "/gateways", body)
    expect(created.status).toBe(201)
    const stored = await storedConfig(created.body.id)
    expect(stored["retries"]).toBe(3)
    expect(opened(stored["api_key"])).toBe(JSON.stringify("k"))
    const inexact = await call("POST", "/gateways", `{"plugin":"cards","name":"C","currency_code":"USD","method":"${uniqueMethod()}","config":{"api_key":"k","retries":12345678901234567890}}`)
    expect(inexact.status).toBe(422)
    expect(Object.keys(inexact.body.errors)).toEqual(["config"])
  })

  it("answers 409 GATEWAY_EXISTS when the method and currency make a code already taken, whatever the case", async () => {
    const first = await createSandbox()
    const again = await call("POST", "/gateways", { plugin: "sandbox", name: "Again", currency_code: "USD", method: first.method.toUpperCase() })
    expect(again.status).toBe(409)
    expect(again.body).toMatchObject({ error_code: "GATEWAY_EXISTS", success: false })
    expect(again.body.message).toContain(first.code)
  })
})

describe("admin gateways: create refuses bad input with 422", () => {
  const post = (extra: Record<string, unknown>) =>
    call("POST", "/gateways", { plugin: "sandbox", name: "X", currency_code: "USD", method: uniqueMethod(), ...extra })

  it("names every missing required field at once", async () => {
    const { body, status } = await call("POST", "/gateways", {})
    expect(status).toBe(422)
    expect(Object.keys(body.errors).sort()).toEqual(["currency_code", "method", "name", "plugin"])
  })

  it("refuses an unknown plugin on `plugin`, listing the registered ones", async () => {
    const { body, status } = await post({ plugin: "paypal" })
    expect(status).toBe(422)
    expect(body.error_code).toBe("VALIDATION_FAILED")
    expect(body.errors).toEqual({ plugin: ["Unknown gateway plugin \"paypal\". Registered plugins: sandbox, cards."] })
  })

  it("refuses a currency the kit does not know with INVALID_CURRENCY, and one the plugin cannot serve", async () => {
    for (const code of ["XYZ", "usd", "XAU"]) {
      const unknown = await post({ currency_code: code })
      expect([unknown.status, unknown.body.error_code, Object.keys(unknown.body.errors)]).toEqual([422, "INVALID_CURRENCY", ["currency_code"]])
    }
    const unserved = await post({ plugin: "cards", currency_code: "EUR", config: { api_key: "k" } })
    expect([unserved.status, unserved.body.error_code]).toEqual([422, "VALIDATION_FAILED"])
    expect(unserved.body.errors).toEqual({ currency_code: ["The cards plugin cannot serve EUR; it serves USD, BDT."] })
    expect((await post({ currency_code: "BTC" })).status).toBe(201)
  })

  it("validates config with the plugin's schema: absent means {}, unknown keys and wrong types are named", async () => {
    const absent = await post({ plugin: "cards" })
    expect([absent.status, Object.keys(absent.body.errors)]).toEqual([422, ["config"]])
    expect(absent.body.errors.config.join(" ")).toContain("api_key")
    for (const config of [{ label: 5 }, { label: "" }, { secret: "x" }, [], "label", 3]) {
      const refused = await post({ config })
      expect([refused.status, Object.keys(refused.body.errors)], JSON.stringify(config)).toEqual([422, ["config"]])
    }
    expect((await post({ config: null })).status).toBe(201)
  })

  it("refuses a method that cannot form a code, and a type or active of the wrong kind", async () => {
    for (const method of ["", "_card", "card-x", "card x", "kärt", "a".repeat(32)]) {
      const refused = await post({ method })
      expect([refused.status, Object.keys(refused.body.errors)], method).toEqual([422, ["method"]])
    }
    expect((await post({ method: `A${"b".repeat(30)}` })).status).toBe(201)
    const wrongKinds = await post({ type: "sometimes", active: "yes" })
    expect(Object.keys(wrongKinds.body.errors).sort()).toEqual(["active", "type"])
  })

  it("reports every rule the request breaks together, with INVALID_CURRENCY when the currency is unknown", async () => {
    const { body } = await post({ currency_code: "XYZ", method: "bad method", config: { nope: 1 } })
    expect(body.error_code).toBe("INVALID_CURRENCY")
    expect(Object.keys(body.errors).sort()).toEqual(["config", "currency_code", "method"])
  })
})

describe("admin gateways: update", () => {
  it("changes name, active and type, and keeps the rest", async () => {
    const created = await createSandbox()
    const { body, status } = await call("PATCH", `/gateways/${created.id}`, { name: "Renamed", active: false, type: "manual" })
    expect(status).toBe(200)
    expect(body).toEqual({ ...created, name: "Renamed", active: false, type: "manual" })
    expect((await call("PATCH", `/gateways/${created.id}`, {})).body).toEqual(body)
    expect((await call("PATCH", `/gateways/${created.id}`, { active: true })).body).toEqual({ ...body, active: true })
  })

  it("answers 404 for a gateway that does not exist and 422 for bad fields", async () => {
    for (const path of ["/gateways/987654321", "/gateways/abc", "/gateways/0"]) {
      const missing = await call("PATCH", path, { name: "X" })
      expect([missing.status, missing.body.error_code, missing.body.message]).toEqual([404, "NOT_FOUND", "Gateway not found."])
    }
    const created = await createSandbox()
    const refused = await call("PATCH", `/gateways/${created.id}`, { name: "", active: "no", type: "x" })
    expect([refused.status, Object.keys(refused.body.errors).sort()]).toEqual([422, ["active", "name", "type"]])
  })
})

describe("admin gateways: config", () => {
  const createCards = async (config: Record<string, unknown>) => {
    const created = await call("POST", "/gateways", { plugin: "cards", name: "Cards", currency_code: "USD", method: uniqueMethod(), config })
    expect(created.status, JSON.stringify(created.body)).toBe(201)
    return created.body
  }

  it("seals secret fields at rest (never the plain value in the store) and answers with the plugin's own message", async () => {
    const created = await createCards({ api_key: "sk_secret_value", retries: 1 })
    const stored = await storedConfig(created.id)
    expect(JSON.stringify(stored)).not.toContain("sk_secret_value")
    expect(opened(stored["api_key"])).toBe(JSON.stringify("sk_secret_value"))
    const refused = await call("POST", "/gateways", { plugin: "cards", name: "C", currency_code: "USD", method: uniqueMethod(), config: { retries: 1 } })
    expect([refused.status, refused.body.errors.config]).toEqual([422, ["api_key is required."]])
  })

  it("changes config through PATCH, checked by the plugin; a secret left out keeps its sealed value", async () => {
    const created = await createCards({ api_key: "first-key" })
    const changed = await call("PATCH", `/gateways/${created.id}`, { config: { retries: 2 } })
    expect(changed.status, JSON.stringify(changed.body)).toBe(200)
    expect(changed.body).not.toHaveProperty("config")
    const stored = await storedConfig(created.id)
    expect([stored["retries"], opened(stored["api_key"])]).toEqual([2, JSON.stringify("first-key")])
    const rotated = await call("PATCH", `/gateways/${created.id}`, { config: { api_key: "second-key" } })
    expect(rotated.status).toBe(200)
    expect(opened((await storedConfig(created.id))["api_key"])).toBe(JSON.stringify("second-key"))
    expect(await storedConfig(created.id)).not.toHaveProperty("retries")
    const refused = await call("PATCH", `/gateways/${created.id}`, { config: { api_key: "k", retries: 1.5 } })
    expect([refused.status, refused.body.errors.config]).toEqual([422, ["retries must be a whole number."]])
    const unchanged = await call("PATCH", `/gateways/${created.id}`, { config: { api_key: "" } })
    expect(unchanged.status).toBe(422)
    expect(opened((await storedConfig(created.id))["api_key"])).toBe(JSON.stringify("second-key"))
  })
})

describe("admin gateways: a merchant's selection", () => {
  const newMerchant = async () => (await call("POST", "/merchants", { name: "Shop" })).body.id as number

  it("replaces the selection with the distinct ids in id order, and an empty list clears it", async () => {
    const merchant = await newMerchant()
    const [a, b] = [await createSandbox(), await createSandbox()]
    const set = await call("PUT", `/merchants/${merchant}/gateways`, { gateway_ids: [b.id, a.id, b.id] })
    expect(set).toEqual({ status: 200, body: { merchant_id: merchant, gateway_ids: [a.id, b.id] } })
    const replaced = await call("PUT", `/merchants/${merchant}/gateways`, { gateway_ids: [b.id] })
    expect(replaced.body.gateway_ids).toEqual([b.id])
    const cleared = await call("PUT", `/merchants/${merchant}/gateways`, { gateway_ids: [] })
    expect(cleared).toEqual({ status: 200, body: { merchant_id: merchant, gateway_ids: [] } })
  })

  it("refuses unknown gateway ids by name and leaves the selection as it was", async () => {
    const merchant = await newMerchant()
    const a = await createSandbox()
    await call("PUT", `/merchants/${merchant}/gateways`, { gateway_ids: [a.id] })
    const refused = await call("PUT", `/merchants/${merchant}/gateways`, { gateway_ids: [a.id, 987654321, 987654322] })
    expect(refused.status).toBe(422)
    expect(refused.body.errors).toEqual({ gateway_ids: ["Unknown gateway ids: 987654321, 987654322."] })
    const selection = await runtime.runPromise(Effect.flatMap(GatewayRepository, (r) => r.merchantSelection(MerchantId(merchant))))
    expect(selection).toEqual([a.id])
  })

  it("answers 404 for a missing merchant and 422 for a malformed list", async () => {
    const missing = await call("PUT", "/merchants/987654321/gateways", { gateway_ids: [] })
    expect([missing.status, missing.body.message]).toEqual([404, "Merchant not found."])
    const merchant = await newMerchant()
    for (const body of [{}, { gateway_ids: "1" }, { gateway_ids: [0] }, { gateway_ids: ["1"] }, { gateway_ids: [1.5] }]) {
      const refused = await call("PUT", `/merchants/${merchant}/gateways`, body)
      expect([refused.status, Object.keys(refused.body.errors)], JSON.stringify(body)).toEqual([422, ["gateway_ids"]])
    }
  })
})
